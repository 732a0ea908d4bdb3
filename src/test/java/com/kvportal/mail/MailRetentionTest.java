package com.kvportal.mail;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.IntegrationTest;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Old sandbox messages and finished outbox rows are deleted; what is recent or still to be sent stays. */
class MailRetentionTest extends IntegrationTest {

    @Autowired
    MailRetention retention;

    @Test
    void shouldDeleteSandboxMessagesAfterSevenDaysAndFinishedOutboxRowsAfterThirtyDays() {
        String tag = UUID.randomUUID().toString();
        received(tag, "old", "8 days");
        received(tag, "recent", "6 days");
        outbox(tag, "sent-long-ago", "31 days", null);
        outbox(tag, "abandoned-long-ago", null, "31 days");
        outbox(tag, "sent-lately", "29 days", null);
        outbox(tag, "waiting-long", null, null);

        retention.purge();

        assertThat(jdbc.sql("select subject from mail_sandbox_messages where recipient = ? order by subject")
                        .param(tag + "@example.com")
                        .query(String.class)
                        .list())
                .containsExactly("recent");
        assertThat(jdbc.sql("select subject from mail_outbox where recipient = ? order by subject")
                        .param(tag + "@example.com")
                        .query(String.class)
                        .list())
                .containsExactly("sent-lately", "waiting-long");
    }

    private void received(String tag, String subject, String age) {
        jdbc.sql(
                        """
                        insert into mail_sandbox_messages
                            (id, message_id, recipient, subject, text_body, html_body, received_at)
                        values (?, ?, ?, ?, '', '', now() - cast(? as interval))""")
                .params(UUID.randomUUID(), "<" + UUID.randomUUID() + "@test>", tag + "@example.com", subject, age)
                .update();
    }

    /** An outbox row sent or given up the given time ago, or (both null) still waiting to be sent. */
    private void outbox(String tag, String subject, @Nullable String sentAgo, @Nullable String abandonedAgo) {
        jdbc.sql(
                        """
                        insert into mail_outbox
                            (id, message_id, recipient, subject, text_body, html_body, created_at, next_attempt_at,
                             sent_at, abandoned_at)
                        values (?, ?, ?, ?, '', '', now() - interval '60 days', now() + interval '1 day',
                                now() - cast(? as interval), now() - cast(? as interval))""")
                .params(
                        UUID.randomUUID(),
                        "<" + UUID.randomUUID() + "@test>",
                        tag + "@example.com",
                        subject,
                        sentAgo,
                        abandonedAgo)
                .update();
    }
}
