package com.kvportal.apikey.cache;

import com.kvportal.apikey.VerifiedKey;
import com.kvportal.common.scheduling.PeriodicJob;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Tells verify-lease holders when a key comes within {@link VerifiedKey#UNCACHEABLE_BEFORE_EXPIRY} of its expiry: a
 * {@code key.changed} (not waited on) every {@value #EVERY_SECONDS} s for the live keys that entered that window since
 * the last scan. A holder drops the key and asks again; verify answers it {@code "cacheable": false} from then on, so
 * the service, which knows the expiry, refuses it at the second it expires. Every instance scans (an event twice
 * costs a holder one more verify); a scan that failed is covered by the next, which starts where the last one that
 * succeeded ended.
 */
@Component
class ExpiringKeys implements PeriodicJob {

    static final long EVERY_SECONDS = 10;

    private final JdbcClient jdbc;
    private final InvalidationLog log;
    private final TransactionTemplate transaction;
    private final Clock clock;

    /** The end of the window the last scan covered; null before the first (which starts from now). */
    private @Nullable Instant scannedUpTo;

    ExpiringKeys(JdbcClient jdbc, InvalidationLog log, PlatformTransactionManager transactions, Clock clock) {
        this.jdbc = jdbc;
        this.log = log;
        this.transaction = new TransactionTemplate(transactions);
        this.clock = clock;
    }

    @Override
    public Schedule schedule() {
        return Schedule.every("expiring-keys", Duration.ofSeconds(EVERY_SECONDS), this::scan);
    }

    void scan() {
        Instant now = clock.instant();
        Instant upTo = now.plus(VerifiedKey.UNCACHEABLE_BEFORE_EXPIRY);
        Instant from = scannedUpTo == null ? now : scannedUpTo;
        List<UUID> entered = jdbc.sql(
                        "select id from api_keys where revoked_at is null and expires_at > ? and expires_at <= ?")
                .params(Timestamp.from(from), Timestamp.from(upTo))
                .query(UUID.class)
                .list();
        if (!entered.isEmpty()) {
            transaction.executeWithoutResult(status -> entered.forEach(log::append));
        }
        scannedUpTo = upTo;
    }
}
