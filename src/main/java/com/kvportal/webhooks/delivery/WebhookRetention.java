package com.kvportal.webhooks.delivery;

import com.kvportal.common.scheduling.PeriodicJob;
import com.kvportal.common.scheduling.ScheduledRuns;
import com.kvportal.common.scheduling.ScheduledRuns.Purge;
import com.kvportal.webhooks.WebhookProperties;
import lombok.RequiredArgsConstructor;
import lombok.extern.slf4j.Slf4j;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Deletes the delivery log's finished deliveries older than {@code kvportal.webhooks.retention} (30 days), then the
 * events no delivery refers to any more. A pending delivery, one with a retry asked for or in flight, and their
 * events are never deleted. It runs every {@code kvportal.webhooks.purge-interval} (1 h) from
 * {@code purge-initial-delay} (1 min) after start-up; any instance may run it, the deletes are idempotent.
 */
@Slf4j
@Component
@RequiredArgsConstructor
class WebhookRetention implements PeriodicJob {

    private final JdbcClient jdbc;
    private final WebhookProperties settings;

    @Override
    public Schedule schedule() {
        return new Schedule("webhook-retention", settings.purgeInitialDelay(), settings.purgeInterval(), this::purge);
    }

    void purge() {
        ScheduledRuns.purge(
                log,
                "Webhooks",
                new Purge("finished deliveries", this::deleteOldFinishedDeliveries),
                new Purge("events", this::deleteOldEventsWithoutDeliveries));
    }

    private int deleteOldFinishedDeliveries() {
        return jdbc.sql(
                        """
                        delete from webhook_deliveries
                        where status <> 'pending' and retry_requested_at is null
                          and (leased_until is null or leased_until < now())
                          and created_at < now() - ? * interval '1 second'""")
                .param(settings.retention().toSeconds())
                .update();
    }

    private int deleteOldEventsWithoutDeliveries() {
        return jdbc.sql(
                        """
                        delete from webhook_events e
                        where e.created_at < now() - ? * interval '1 second'
                          and not exists (select 1 from webhook_deliveries d where d.event_id = e.id)""")
                .param(settings.retention().toSeconds())
                .update();
    }
}
