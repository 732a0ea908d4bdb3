package com.kvportal.mail;

import com.kvportal.common.scheduling.ScheduledRuns;
import com.kvportal.common.scheduling.ScheduledRuns.Purge;
import lombok.RequiredArgsConstructor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Deletes what mail no longer needs: the mail sandbox's messages after {@code kvportal.mail.sandbox-retention}
 * (7 days), and the outbox's rows of messages sent or given up after {@code kvportal.mail.outbox-retention}
 * (30 days). A message still waiting to be sent is never deleted. Any instance may run it; the deletes are
 * idempotent.
 */
@Component
@RequiredArgsConstructor
class MailRetention {

    private static final Logger log = LoggerFactory.getLogger(MailRetention.class);

    private final JdbcClient jdbc;
    private final MailProperties settings;

    @Scheduled(
            initialDelayString = "${kvportal.mail.purge-initial-delay:PT1M}",
            fixedDelayString = "${kvportal.mail.purge-interval:PT1H}")
    void purge() {
        ScheduledRuns.purge(
                log,
                "Mail",
                new Purge("sandbox messages", this::deleteOldSandboxMessages),
                new Purge("finished outbox rows", this::deleteOldFinishedOutboxRows));
    }

    private int deleteOldSandboxMessages() {
        return jdbc.sql("delete from mail_sandbox_messages where received_at < now() - ? * interval '1 second'")
                .param(settings.sandboxRetention().toSeconds())
                .update();
    }

    private int deleteOldFinishedOutboxRows() {
        return jdbc.sql(
                        """
                        delete from mail_outbox
                        where coalesce(sent_at, abandoned_at) < now() - ? * interval '1 second'""")
                .param(settings.outboxRetention().toSeconds())
                .update();
    }
}
