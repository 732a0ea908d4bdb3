package com.kvportal.apikey.cache;

import com.kvportal.apikey.cache.LeaseProblem.LeaseExpired;
import com.kvportal.common.web.FieldErrors;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The verify leases of holders outside the service (a storage backend's process that caches verify answers): rows
 * of {@code key_cache_leases} beside the instances' own, so that a narrowing change waits for them as it waits for an
 * instance ({@link CacheCoherence#awaitApplied}). A holder takes a lease, renews it every T/3, follows the
 * invalidation log as a stream of events and acknowledges each after it dropped what the event names; its
 * acknowledged sequence is the lease's {@code applied_seq}. A lease whose oldest unacknowledged event is older than
 * T/3 is renewed no longer, so a silent holder delays a change by at most T + T/3 (docs/storage-backend.md, "Verify
 * in your own process").
 */
@Service
@RequiredArgsConstructor
public class VerifyLeases {

    /** What a holder drops on an event: one key, every key of an organization, or everything. */
    public enum EventType {
        KEY_CHANGED("key.changed"),
        ORGANIZATION_CHANGED("organization.changed"),
        RESET("reset");

        private final String wire;

        EventType(String wire) {
            this.wire = wire;
        }

        public String wire() {
            return wire;
        }
    }

    /** An event of a lease's stream. */
    public record Event(long seq, EventType type, @Nullable UUID keyId, @Nullable UUID organizationId) {}

    /**
     * The events after a sequence, and how far the log went when they were read (a stream goes on from there).
     *
     * @param upTo the last sequence handed out when the events were read; the events hold every one up to it
     */
    public record Events(long upTo, List<Event> events) {}

    private final JdbcClient jdbc;
    private final KeyCacheProperties properties;
    private final LogTail tail;

    /** T: how long a lease lasts after each renewal, on the database's clock. */
    public Duration ttl() {
        return properties.lease();
    }

    /**
     * A new lease, live for T from now; it starts with every event so far acknowledged (a new holder holds nothing).
     */
    public UUID take() {
        UUID id = UUID.randomUUID();
        jdbc.sql(
                        """
                        insert into key_cache_leases (instance_id, kind, applied_seq, expires_at)
                        select ?, 'holder', seq, clock_timestamp() + make_interval(secs => ?)
                        from key_invalidation_sequence""")
                .params(id, seconds(properties.lease()))
                .update();
        return id;
    }

    /**
     * Extends a live lease to T from now, unless its oldest unacknowledged event is older than T/3: then the lease is
     * stopped (it runs out at its current end and is never renewed again).
     *
     * @throws LeaseExpired for a lease that is unknown, expired, stopped, or stopped now
     */
    public void renew(UUID id) {
        Boolean renewed = jdbc.sql(
                        """
                        update key_cache_leases l
                        set expires_at = case when s.stale then l.expires_at
                                              else clock_timestamp() + make_interval(secs => ?) end,
                            stopped_at = case when s.stale then clock_timestamp() end
                        from (select coalesce(least(
                                  (select min(created_at) from key_invalidations i where i.seq > x.applied_seq),
                                  (select min(created_at) from organization_invalidations o
                                   where o.seq > x.applied_seq))
                                  < clock_timestamp() - make_interval(secs => ?), false) as stale
                              from key_cache_leases x where x.instance_id = ?) s
                        where l.instance_id = ? and l.kind = 'holder' and l.stopped_at is null
                          and l.expires_at > clock_timestamp()
                        returning l.stopped_at is null""")
                .params(seconds(properties.lease()), seconds(properties.acknowledgeWithin()), id, id)
                .query(Boolean.class)
                .optional()
                .orElse(false);
        if (!renewed) {
            throw new LeaseExpired();
        }
    }

    /**
     * Acknowledges every event up to {@code seq}: the holder dropped what they name. Wakes the changes waiting on
     * every instance ({@code NOTIFY}, as an instance's own acknowledgement does).
     *
     * @throws LeaseExpired for a lease that is unknown, expired or stopped
     */
    @Transactional
    public void acknowledge(UUID id, long seq) {
        Long highest = jdbc.sql(
                        """
                        select s.seq from key_cache_leases l, key_invalidation_sequence s
                        where l.instance_id = ? and l.kind = 'holder' and l.stopped_at is null
                          and l.expires_at > clock_timestamp()
                        for update of l""")
                .param(id)
                .query(Long.class)
                .optional()
                .orElseThrow(LeaseExpired::new);
        if (seq < 0 || seq > highest) {
            new FieldErrors()
                    .add(
                            "seq",
                            "must be from 0 to " + highest + ", the highest sequence handed out so far: acknowledge"
                                    + " the seq of an event the stream sent")
                    .throwIfAny();
        }
        jdbc.sql("update key_cache_leases set applied_seq = greatest(applied_seq, ?) where instance_id = ?")
                .params(seq, id)
                .update();
        jdbc.sql("select pg_notify('" + InvalidationLog.APPLIED + "', '')")
                .query((rs, n) -> 1)
                .single();
    }

    /**
     * The acknowledged sequence of a live lease: where its stream starts.
     *
     * @throws LeaseExpired for a lease that is unknown, expired or stopped
     */
    public long acknowledged(UUID id) {
        return jdbc.sql(
                        """
                        select applied_seq from key_cache_leases
                        where instance_id = ? and kind = 'holder' and stopped_at is null
                          and expires_at > clock_timestamp()""")
                .param(id)
                .query(Long.class)
                .optional()
                .orElseThrow(LeaseExpired::new);
    }

    /** Whether the lease is still live (its stream ends when it is not). */
    public boolean isLive(UUID id) {
        try {
            acknowledged(id);
            return true;
        } catch (LeaseExpired e) {
            return false;
        }
    }

    /**
     * The events after {@code after}, read in one snapshot: one {@code reset} instead when part of them was purged
     * from the log (or a change cannot be told by key).
     */
    public Events after(long after) {
        List<Event> events = new ArrayList<>();
        long[] log = new long[2]; // the last sequence handed out, the highest purged
        jdbc.sql(
                        """
                        select s.seq as up_to, s.purged_through, e.seq, e.type, e.key_id, e.organization_id
                        from key_invalidation_sequence s
                        left join (
                            select seq, 'key' as type, key_id, organization_id from key_invalidations
                            union all
                            select seq, 'organization', null, organization_id from organization_invalidations
                        ) e on e.seq > ? and e.seq <= s.seq
                        order by e.seq""")
                .param(after)
                .query(rs -> {
                    log[0] = rs.getLong("up_to");
                    log[1] = rs.getLong("purged_through");
                    long seq = rs.getLong("seq");
                    if (rs.wasNull()) {
                        return;
                    }
                    UUID keyId = rs.getObject("key_id", UUID.class);
                    UUID organizationId = rs.getObject("organization_id", UUID.class);
                    if (rs.getString("type").equals("organization")) {
                        events.add(new Event(seq, EventType.ORGANIZATION_CHANGED, null, organizationId));
                    } else if (keyId != null) {
                        events.add(new Event(seq, EventType.KEY_CHANGED, keyId, organizationId));
                    } else {
                        // an entry from before the log named keys: the holder cannot tell which one
                        events.add(new Event(seq, EventType.RESET, null, null));
                    }
                });
        if (log[1] > after || events.stream().anyMatch(event -> event.type() == EventType.RESET)) {
            return new Events(log[0], List.of(new Event(log[0], EventType.RESET, null, null)));
        }
        return new Events(log[0], events);
    }

    /**
     * Waits until this instance saw the log go beyond {@code seq}, or {@code millis} passed.
     *
     * @return whether it did
     */
    public boolean awaitBeyond(long seq, long millis) throws InterruptedException {
        return tail.awaitBeyond(seq, millis);
    }

    private static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }
}
