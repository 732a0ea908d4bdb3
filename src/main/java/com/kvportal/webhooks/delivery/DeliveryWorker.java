package com.kvportal.webhooks.delivery;

import com.kvportal.common.scheduling.PeriodicJob;
import com.kvportal.common.scheduling.ScheduledRuns;
import com.kvportal.common.scheduling.SoonRunner;
import com.kvportal.webhooks.WebhookProperties;
import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.WebhookSigningException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lombok.RequiredArgsConstructor;
import lombok.extern.slf4j.Slf4j;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Delivers the outbox: right after each commit that queued a delivery, and every {@code poll-interval} for what is
 * due (retries, other instances' deliveries, deliveries a crashed instance held). Claims only as many as it has free
 * workers ({@link DeliveryPool}), fairly across organizations ({@link StoredDeliveries#claimDue}): one organization's
 * slow endpoints hold at most {@code in-flight-per-organization} workers of the cluster. Each attempt is signed as Standard Webhooks says, with every secret that signs now.
 */
@Slf4j
@Component
@RequiredArgsConstructor
public class DeliveryWorker implements PeriodicJob, DisposableBean {

    private final StoredDeliveries deliveries;
    private final DeliveryOutcomes outcomes;
    private final WebhookClient client;
    private final TransactionTemplate transactions;
    private final WebhookProperties settings;
    private final Clock clock;
    private final DeliveryPool pool;
    private final SoonRunner dispatcher = new SoonRunner("webhook-dispatch", this::dispatch);

    /** The poll, every {@code kvportal.webhooks.poll-interval}. */
    @Override
    public Schedule schedule() {
        return Schedule.every("webhook-poll", settings.pollInterval(), this::soon);
    }

    /**
     * Claims and starts what is due, on the dispatcher's thread: after each commit that queued a delivery, when an
     * attempt ends, and every poll; calls while a run is queued add nothing.
     */
    public void soon() {
        dispatcher.soon();
    }

    private void dispatch() {
        ScheduledRuns.orNextRun(log, "Webhooks: claiming deliveries", this::claimAndStart);
    }

    private void claimAndStart() {
        while (true) {
            int available = pool.free();
            if (available == 0) {
                return; // a finishing attempt calls soon() again
            }
            List<StoredDeliveries.Claimed> claimed = transactions.execute(
                    status -> deliveries.claimDue(available, settings.inFlightPerOrganization(), settings.lease()));
            if (claimed == null || claimed.isEmpty()) {
                return;
            }
            for (StoredDeliveries.Claimed delivery : claimed) {
                // a finishing attempt frees its worker, then looks for more
                if (!pool.start(() -> attempt(delivery), this::soon)) {
                    return; // shutting down: its lease runs out; another instance, or this one restarted, tries again
                }
            }
            if (claimed.size() < available) {
                return;
            }
        }
    }

    private void attempt(StoredDeliveries.Claimed delivery) {
        try {
            WebhookClient.Outcome outcome = client.post(delivery.url(), headers(delivery), bytes(delivery));
            if (!outcome.delivered()) {
                log.info(
                        "Webhooks: attempt {} of {} to endpoint {} failed: {}",
                        delivery.attempt(),
                        delivery.eventId(),
                        delivery.endpointId(),
                        outcome.detail() != null ? outcome.detail() : "status " + outcome.status());
            }
            transactions.executeWithoutResult(status -> outcomes.record(delivery, outcome));
        } catch (RuntimeException e) {
            // the outcome is lost: the lease runs out and the delivery is attempted again (at least once)
            log.warn("Webhooks: recording the attempt of {} failed: {}", delivery.eventId(), e.toString());
        }
    }

    private Map<String, String> headers(StoredDeliveries.Claimed delivery) {
        long timestamp = clock.instant().getEpochSecond();
        StringBuilder signatures = new StringBuilder();
        for (String secret : delivery.secrets()) {
            try {
                String signature = new Webhook(secret).sign(delivery.eventId(), timestamp, delivery.body());
                signatures.append(signatures.isEmpty() ? "" : " ").append(signature);
            } catch (WebhookSigningException e) {
                throw new IllegalStateException("signing failed", e);
            }
        }
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("webhook-id", delivery.eventId());
        headers.put("webhook-timestamp", Long.toString(timestamp));
        headers.put("webhook-signature", signatures.toString());
        return headers;
    }

    private static byte[] bytes(StoredDeliveries.Claimed delivery) {
        return delivery.body().getBytes(StandardCharsets.UTF_8);
    }

    /** When the schedule's next attempt is due after {@code scheduledAttempts} failed ones, or null: failed. */
    static Instant nextAttempt(List<Duration> schedule, int scheduledAttempts, Instant now) {
        return scheduledAttempts > schedule.size() ? null : now.plus(schedule.get(scheduledAttempts - 1));
    }

    @Override
    public void destroy() {
        dispatcher.shutdownNow();
    }
}
