package com.kvportal.apikey.analytics;

import com.kvportal.common.scheduling.PeriodicJob;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import lombok.RequiredArgsConstructor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Deletes buckets past their granularity's reach, every {@code kvportal.analytics.purge-interval}. Every instance
 * runs the job; a transaction-scoped advisory lock lets one purge at a time (the others skip that run).
 */
@Component
@RequiredArgsConstructor
class VerificationRetention implements PeriodicJob {

    private static final Logger log = LoggerFactory.getLogger(VerificationRetention.class);

    private final JdbcClient jdbc;
    private final TransactionTemplate transactions;
    private final AnalyticsProperties properties;
    private final Clock clock;

    @Override
    public Schedule schedule() {
        return Schedule.every("verification-retention", properties.purgeInterval(), this::purge);
    }

    void purge() {
        Instant now = clock.instant();
        transactions.executeWithoutResult(status -> {
            boolean mine = jdbc.sql("select pg_try_advisory_xact_lock(hashtextextended('key_verifications:purge', 0))")
                    .query(Boolean.class)
                    .single();
            if (!mine) {
                return;
            }
            for (Granularity granularity : Granularity.values()) {
                int deleted = jdbc.sql("delete from " + granularity.table() + " where bucket_start < ?")
                        .param(Timestamp.from(granularity.purgeBefore(now)))
                        .update();
                if (deleted > 0) {
                    log.info("Deleted {} {} buckets of verifications past their reach", deleted, granularity.wire());
                }
            }
        });
    }
}
