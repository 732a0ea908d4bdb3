package com.kvportal.apikey.activity;

import com.kvportal.apikey.ApiKey;
import com.kvportal.apikey.ApiKeyEvent;
import com.kvportal.apikey.StoredApiKeys;
import com.kvportal.common.scheduling.PeriodicJob;
import com.kvportal.common.scheduling.ScheduledRuns;
import java.time.Duration;
import java.util.List;
import lombok.RequiredArgsConstructor;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Tells when a key is about to expire: a scan every {@code kvportal.api-keys.expiry-scan-interval} (15 min, the first
 * one {@code expiry-scan-initial-delay}, 30 s, after start-up) publishes
 * {@link ApiKeyEvent.Expiring} 7 days and 1 day before {@code expires_at}, once per key and lead. A key is marked in
 * the transaction that publishes its event (the listeners, e.g. the outgoing webhooks, write in it too), so two
 * instances scanning at once notice it once. A key created with less than a day to live gets the 1-day notice only.
 */
@Component
@RequiredArgsConstructor
class KeyExpiryNotices implements PeriodicJob {

    private static final int BATCH = 500;

    /** The leads, each with the start of its window: the 7-day notice covers (1 day, 7 days]. */
    private static final List<Lead> LEADS = List.of(new Lead(1, Duration.ZERO), new Lead(7, Duration.ofDays(1)));

    private record Lead(int days, Duration from) {}

    private final StoredApiKeys keys;
    private final ApplicationEventPublisher events;
    private final TransactionTemplate transactions;
    private final ApiKeysProperties properties;

    @Override
    public Schedule schedule() {
        return new Schedule(
                "key-expiry-notices", properties.expiryScanInitialDelay(), properties.expiryScanInterval(), this::scan);
    }

    /** A failed batch marked nothing: the next scan notices its keys. */
    void scan() {
        for (Lead lead : LEADS) {
            ScheduledRuns.inBatches(transactions, () -> noticeBatch(lead));
        }
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
