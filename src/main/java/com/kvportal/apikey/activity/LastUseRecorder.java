package com.kvportal.apikey.activity;

import com.kvportal.apikey.StoredApiKeys;
import com.kvportal.common.database.DatabaseFailures;
import com.kvportal.common.scheduling.PeriodicJob;
import jakarta.annotation.PreDestroy;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import lombok.RequiredArgsConstructor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Keeps {@code last_used_at} off verify's request path: verify notes the time in memory, and a
 * flush every {@code kvportal.api-keys.last-used-flush} (0.5 s) writes the latest time of every used key in one batch.
 */
@Component
@RequiredArgsConstructor
public class LastUseRecorder implements PeriodicJob {

    private static final Logger log = LoggerFactory.getLogger(LastUseRecorder.class);

    private final ConcurrentHashMap<UUID, Instant> pending = new ConcurrentHashMap<>();
    private final StoredApiKeys keys;
    private final ApiKeysProperties properties;

    public void used(UUID keyId, Instant at) {
        pending.merge(keyId, at, (a, b) -> a.isAfter(b) ? a : b);
    }

    @Override
    public Schedule schedule() {
        return new Schedule("last-use-flush", Duration.ZERO, properties.lastUsedFlush(), this::flush);
    }

    void flush() {
        if (pending.isEmpty()) {
            return;
        }
        Map<UUID, Instant> batch = new HashMap<>();
        for (UUID id : pending.keySet()) {
            Instant at = pending.remove(id);
            if (at != null) {
                batch.put(id, at);
            }
        }
        try {
            keys.recordLastUse(batch);
        } catch (RuntimeException e) {
            if (DatabaseFailures.isUnavailable(e)) {
                log.warn("Could not record last use of {} keys, the database is unavailable; retrying", batch.size());
            } else {
                log.warn("Could not record last use of {} keys; retrying on the next flush", batch.size(), e);
            }
            batch.forEach(this::used);
        }
    }

    /**
     * On shutdown, after the web server has drained its requests and before the pool closes (this bean depends on the
     * pool, so it is destroyed first), the last uses are written.
     */
    @PreDestroy
    void flushOnShutdown() {
        flush();
    }
}
