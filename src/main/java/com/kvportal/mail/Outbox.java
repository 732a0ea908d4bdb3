package com.kvportal.mail;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of the mail outbox. */
@Repository
@RequiredArgsConstructor
class Outbox {

    private final JdbcClient jdbc;

    record Pending(
            UUID id,
            String messageId,
            String recipient,
            String subject,
            String textBody,
            String htmlBody,
            int attempts,
            boolean expired) {}

    void insert(UUID id, String messageId, String recipient, String subject, MailTemplates.Rendered body) {
        jdbc.sql(
                        """
                        insert into mail_outbox (id, message_id, recipient, subject, text_body, html_body)
                        values (?, ?, ?, ?, ?, ?)""")
                .params(id, messageId, recipient, subject, body.text(), body.html())
                .update();
    }

    /**
     * Claims due messages, oldest first, in the caller's transaction: rows another instance holds are skipped, so
     * that each message is sent by one instance at a time.
     */
    List<Pending> claimDue(int limit, Duration retryFor) {
        return jdbc.sql(
                        """
                        select id, message_id, recipient, subject, text_body, html_body, attempts,
                               created_at < now() - :retryFor * interval '1 second' as expired
                        from mail_outbox
                        where sent_at is null and abandoned_at is null and next_attempt_at <= now()
                        order by next_attempt_at, created_at
                        limit :limit
                        for update skip locked""")
                .param("retryFor", retryFor.toSeconds())
                .param("limit", limit)
                .query(Pending.class)
                .list();
    }

    /** Sent: the body goes (it may hold a link with a token), the headers stay. */
    void sent(UUID id) {
        jdbc.sql("update mail_outbox set sent_at = now(), attempts = attempts + 1, text_body = '', html_body = ''"
                        + " where id = ?")
                .param(id)
                .update();
    }

    void failed(UUID id, Duration wait, String error) {
        jdbc.sql(
                        """
                        update mail_outbox set attempts = attempts + 1, last_error = ?,
                            next_attempt_at = now() + ? * interval '1 millisecond'
                        where id = ?""")
                .params(error, wait.toMillis(), id)
                .update();
    }

    void abandoned(UUID id) {
        jdbc.sql("update mail_outbox set abandoned_at = now(), text_body = '', html_body = '' where id = ?")
                .param(id)
                .update();
    }

    /** The SMTP server answers again: messages waiting out a backoff are due now. */
    int retryWaitingNow() {
        return jdbc.sql(
                        """
                        update mail_outbox set next_attempt_at = now()
                        where sent_at is null and abandoned_at is null and attempts > 0 and next_attempt_at > now()""")
                .update();
    }
}
