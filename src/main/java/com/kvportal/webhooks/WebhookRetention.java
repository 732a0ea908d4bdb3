package com.kvportal.webhooks;

import com.kvportal.common.scheduling.ScheduledRuns;
import com.kvportal.common.scheduling.ScheduledRuns.Purge;
import lombok.RequiredArgsConstructor;
import lombok.extern.slf4j.Slf4j;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Deletes the delivery log's finished deliveries older than {@code kvportal.webhooks.retention} (30 days), then the
 * events no delivery refers to any more. A pending delivery, one with a retry asked for or in flight, and their
 * events are never deleted. Any instance may run
 * it; the deletes are idempotent.
 */
@Slf4j
@Component
@RequiredArgsConstructor
class WebhookRetention {

    private final JdbcClient jdbc;
    private final WebhookProperties settings;

    @Scheduled(
            initialDelayString = "${kvportal.webhooks.purge-initial-delay:PT1M}",
            fixedDelayString = "${kvportal.webhooks.purge-interval:PT1H}")
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
                        where status <> 'pending' and not retry_requested
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
