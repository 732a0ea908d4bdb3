package com.kvportal.apikey;

import com.kvportal.common.scheduling.ScheduledRuns;
import java.time.Duration;
import java.util.List;
import lombok.RequiredArgsConstructor;
import lombok.extern.slf4j.Slf4j;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Tells when a key is about to expire: a scan every {@code kvportal.api-keys.expiry-scan-interval} publishes
 * {@link ApiKeyEvent.Expiring} 7 days and 1 day before {@code expires_at}, once per key and lead. A key is marked in
 * the transaction that publishes its event (the listeners, e.g. the outgoing webhooks, write in it too), so two
 * instances scanning at once notice it once. A key created with less than a day to live gets the 1-day notice only.
 */
@Slf4j
@Component
@RequiredArgsConstructor
class KeyExpiryNotices {

    private static final int BATCH = 500;

    /** The leads, each with the start of its window: the 7-day notice covers (1 day, 7 days]. */
    private static final List<Lead> LEADS = List.of(new Lead(1, Duration.ZERO), new Lead(7, Duration.ofDays(1)));

    private record Lead(int days, Duration from) {}

    private final StoredApiKeys keys;
    private final ApplicationEventPublisher events;
    private final TransactionTemplate transactions;

    @Scheduled(
            fixedDelayString = "${kvportal.api-keys.expiry-scan-interval:15m}",
            initialDelayString = "${kvportal.api-keys.expiry-scan-initial-delay:30s}")
    void scan() {
        // a failed batch marked nothing: the next scan notices its keys
        ScheduledRuns.orNextRun(log, "Key expiry notices: the scan", () -> {
            for (Lead lead : LEADS) {
                ScheduledRuns.inBatches(transactions, () -> noticeBatch(lead));
            }
        });
    }

    private boolean noticeBatch(Lead lead) {
        List<StoredApiKeys.Expiring> due =
                keys.claimExpiring(lead.days(), lead.from(), Duration.ofDays(lead.days()), BATCH);
        for (StoredApiKeys.Expiring expiring : due) {
            ApiKey key = expiring.key();
            events.publishEvent(new ApiKeyEvent.Expiring(
                    expiring.organizationId(), key.projectId(), key.id(), key.name(), key.expiresAt(), lead.days()));
        }
        return due.size() == BATCH;
    }
}
