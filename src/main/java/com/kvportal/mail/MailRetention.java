package com.kvportal.mail;

import com.kvportal.common.scheduling.PeriodicJob;
import com.kvportal.common.scheduling.ScheduledRuns;
import com.kvportal.common.scheduling.ScheduledRuns.Purge;
import lombok.RequiredArgsConstructor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Deletes what mail no longer needs: the mail sandbox's messages after {@code kvportal.mail.sandbox-retention}
 * (7 days), and the outbox's rows of messages sent or given up after {@code kvportal.mail.outbox-retention}
 * (30 days), every {@code kvportal.mail.purge-interval} (1 h) from {@code purge-initial-delay} (1 min) after start-up.
 * A message still waiting to be sent is never deleted. Any instance may run it; the deletes are idempotent.
 */
@Component
@RequiredArgsConstructor
class MailRetention implements PeriodicJob {

    private static final Logger log = LoggerFactory.getLogger(MailRetention.class);

    private final JdbcClient jdbc;
    private final MailProperties settings;

    @Override
    public Schedule schedule() {
        return new Schedule("mail-retention", settings.purgeInitialDelay(), settings.purgeInterval(), this::purge);
    }

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
