package com.kvportal.sandbox.events;

import com.kvportal.sandbox.SandboxDatabase;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Repository;

/**
 * The SQL of the {@code sandbox.sandbox_events} outbox. A row is delivered when {@code delivered_at} is set; until then
 * {@code attempts}, {@code last_status}, {@code last_error} and {@code next_attempt_at} tell how delivery goes.
 */
@Repository
@RequiredArgsConstructor
public class EventOutbox {

    /** An event claimed for delivery. */
    record Pending(long seq, String id, String type, String payload, int attempts) {}

    private final SandboxDatabase database;

    void insert(String id, String type, String payload) {
        database.sql("insert into sandbox.sandbox_events (id, type, payload) values (?, ?, ?)")
                .params(id, type, payload)
                .update();
    }

    /** The body of the event as it is delivered, if it is still kept. */
    public Optional<String> payload(String id) {
        return database.sql("select payload from sandbox.sandbox_events where id = ?")
                .param(id)
                .query(String.class)
                .optional();
    }

    /**
     * The bodies of the newest events, newest first; {@code type} is a type ({@code invoice.created}) or a group
     * of types ({@code invoice.*}); null: all. {@code limit} + 1 rows are asked for to tell whether there are more.
     */
    public List<String> newest(@Nullable String type, int limit) {
        String exact = type != null && !type.endsWith(".*") ? type : null;
        String prefix = type != null && type.endsWith(".*") ? type.substring(0, type.length() - 1) : null;
        return database.sql(
                        """
                        select payload from sandbox.sandbox_events
                        where (cast(:exact as text) is null or type = :exact)
                          and (cast(:prefix as text) is null or starts_with(type, :prefix))
                        order by seq desc limit :limit""")
                .param("exact", exact)
                .param("prefix", prefix)
                .param("limit", limit)
                .query(String.class)
                .list();
    }

    /**
     * Claims due events for one instance: the lease moves {@code next_attempt_at} past the time a delivery can
     * take, so another instance skips these rows now (SKIP LOCKED) and after the lease only if this one died.
     */
    List<Pending> claimDue(int limit, Duration lease) {
        List<Pending> claimed = database.sql(
                        """
                        update sandbox.sandbox_events set next_attempt_at = now() + make_interval(secs => ?)
                        where seq in (select seq from sandbox.sandbox_events
                                      where delivered_at is null and next_attempt_at <= now()
                                      order by seq limit ? for update skip locked)
                        returning seq, id, type, payload, attempts""")
                .params(lease.toSeconds(), limit)
                .query((rs, n) -> new Pending(
                        rs.getLong("seq"),
                        rs.getString("id"),
                        rs.getString("type"),
                        rs.getString("payload"),
                        rs.getInt("attempts")))
                .list();
        return claimed.stream().sorted(Comparator.comparingLong(Pending::seq)).toList();
    }

    void delivered(long seq, int status) {
        database.sql(
                        """
                        update sandbox.sandbox_events set attempts = attempts + 1, last_attempt_at = now(), last_status = ?,
                            last_error = null, delivered_at = now()
                        where seq = ?""")
                .params(status, seq)
                .update();
    }

    void failed(long seq, @Nullable Integer status, String error, Duration retryIn) {
        database.sql(
                        """
                        update sandbox.sandbox_events set attempts = attempts + 1, last_attempt_at = now(), last_status = ?,
                            last_error = ?, next_attempt_at = now() + make_interval(secs => ?)
                        where seq = ?""")
                .params(
                        status,
                        error.length() > 500 ? error.substring(0, 500) : error,
                        retryIn.toMillis() / 1000.0,
                        seq)
                .update();
    }

    public void forgetDeliveredAfter30Days() {
        database.sql("delete from sandbox.sandbox_events where delivered_at < now() - interval '30 days'")
                .update();
    }
}
