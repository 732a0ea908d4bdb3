package com.kvportal.common.limits;

import com.kvportal.common.scheduling.PeriodicJob;
import java.time.Duration;
import java.util.Optional;
import lombok.RequiredArgsConstructor;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Token buckets kept in PostgreSQL, so that every instance draws on the same budget: one row per bucket holding its
 * theoretical arrival time (the generic cell rate algorithm), taken and updated in a single statement under the row's
 * lock, so that parallel requests cannot slip past a limit together.
 */
@Component
@RequiredArgsConstructor
class RequestLimits implements PeriodicJob {

    private final JdbcClient jdbc;

    /**
     * Takes one request from the bucket {@code key}, which holds {@code requests} per {@code window}.
     *
     * @return empty when the request may go ahead, else how long until it would
     */
    Optional<Duration> take(String key, int requests, Duration window) {
        if (requests <= 0) {
            return Optional.empty();
        }
        long windowMicros = window.toNanos() / 1000;
        long intervalMicros = Math.max(1, windowMicros / requests);
        // a refused request leaves the row as it was: its arrival time tells when the next one fits
        Optional<Duration> wait = jdbc.sql(
                        """
                        insert into request_limits as r (key, tat, allowed)
                        values (:key, now() + :interval * interval '1 microsecond', true)
                        on conflict (key) do update set
                            allowed = greatest(r.tat, now()) + :interval * interval '1 microsecond'
                                <= now() + :window * interval '1 microsecond',
                            tat = case
                                when greatest(r.tat, now()) + :interval * interval '1 microsecond'
                                    <= now() + :window * interval '1 microsecond'
                                then greatest(r.tat, now()) + :interval * interval '1 microsecond'
                                else r.tat end
                        returning allowed,
                            ceil(extract(epoch from r.tat + :interval * interval '1 microsecond'
                                - :window * interval '1 microsecond' - now()))::bigint""")
                .param("key", key)
                .param("interval", intervalMicros)
                .param("window", windowMicros)
                .query((rs, n) -> rs.getBoolean(1)
                        ? Optional.<Duration>empty()
                        : Optional.of(Duration.ofSeconds(Math.max(1, rs.getLong(2)))))
                .single();
        return wait;
    }

    /** Every 10 minutes, from a minute after start-up. */
    @Override
    public Schedule schedule() {
        return new Schedule(
                "request-limits-cleanup", Duration.ofMinutes(1), Duration.ofMinutes(10), this::forgetFullBuckets);
    }

    /** A bucket whose arrival time has passed is full again, exactly as if it did not exist. */
    void forgetFullBuckets() {
        jdbc.sql("delete from request_limits where tat < now()").update();
    }
}
