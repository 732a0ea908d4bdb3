package com.kvportal.apikey.limits;

import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Leases budget of a rate-limit window from PostgreSQL: one statement, one transaction. The row's {@code granted}
 * never passes the limit, whatever instances ask at once (the upsert's row lock orders them).
 */
@Repository
@RequiredArgsConstructor
class RateLeases {

    private final JdbcClient jdbc;

    /** What a lease gave, and how much of the window's limit is granted now (to this and every other instance). */
    record Lease(long taken, long granted) {}

    Lease lease(UUID keyId, RateLimit limit, long windowStart, long chunk) {
        return jdbc.sql(
                        """
                        insert into api_key_rate_windows as w (key_id, name, window_start, window_end, granted,
                            last_take)
                        values (:key, :name, :start, :end, least(:chunk, :limit), least(:chunk, :limit))
                        on conflict (key_id, name, window_start) do update
                            set granted = greatest(w.granted, least(:limit, w.granted + :chunk)),
                                last_take = greatest(w.granted, least(:limit, w.granted + :chunk)) - w.granted
                        returning last_take, granted""")
                .param("key", keyId)
                .param("name", limit.nameValue())
                .param("start", windowStart)
                .param("end", windowStart + limit.duration())
                .param("chunk", chunk)
                .param("limit", limit.limitValue())
                .query((rs, n) -> new Lease(rs.getLong("last_take"), rs.getLong("granted")))
                .single();
    }

    /** Windows that ended more than a day ago. */
    int deleteEndedBefore(long epochMillis) {
        return jdbc.sql("delete from api_key_rate_windows where window_end < ?")
                .param(epochMillis)
                .update();
    }
}
