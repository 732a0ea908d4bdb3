package com.kvportal.apikey.cache;

import com.kvportal.apikey.KeyDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The SQL of the key cache's protocol: the invalidation log (the truth about what changed), its sequence, and the
 * instances' leases. Appending runs in the narrowing change's transaction; the rest on an instance's dedicated
 * connections, each statement its own transaction.
 */
@Repository
@RequiredArgsConstructor
class InvalidationLog {

    /** Wakes the instances: an invalidation committed (the payload is its sequence number, for humans only). */
    static final String INVALIDATED = "kvportal_key_invalidated";
    /** Wakes the waiting changes: an instance recorded a higher {@code applied_seq}. */
    static final String APPLIED = "kvportal_key_applied";

    private final JdbcClient jdbc;

    /**
     * Writes an invalidation of this key in the current transaction and announces it on commit. The sequence row
     * stays locked until the commit, so sequence numbers become visible in their order.
     *
     * @return its sequence number
     */
    long append(UUID keyId) {
        long seq = nextSeq();
        // the key's id and organization for holders outside the service, who know keys by id; created_at on the
        // clock, not the transaction's start: a holder must acknowledge within a third of its lease from about now
        jdbc.sql(
                        """
                        insert into key_invalidations (seq, digest, key_id, organization_id, created_at)
                        select ?, digest, id, organization_id, clock_timestamp() from api_keys where id = ?""")
                .params(seq, keyId)
                .update();
        announce(seq);
        return seq;
    }

    /**
     * Writes, in the current transaction, that every verify answer of this organization's keys changed (its plan or
     * storage standing): instances hold nothing of it in their key caches, holders outside drop its keys.
     *
     * @return its sequence number
     */
    long appendOrganization(UUID organizationId) {
        long seq = nextSeq();
        jdbc.sql("insert into organization_invalidations (seq, organization_id) values (?, ?)")
                .params(seq, organizationId)
                .update();
        announce(seq);
        return seq;
    }

    private long nextSeq() {
        return jdbc.sql("update key_invalidation_sequence set seq = seq + 1 returning seq")
                .query(Long.class)
                .single();
    }

    private void announce(long seq) {
        jdbc.sql("select pg_notify('" + INVALIDATED + "', ?)")
                .param(Long.toString(seq))
                .query((rs, n) -> 1)
                .single();
    }

    /** The digest of a key, to drop it from this instance's memory. */
    Optional<KeyDigest> digestOf(UUID keyId) {
        return jdbc.sql("select digest from api_keys where id = ?")
                .param(keyId)
                .query((rs, n) -> KeyDigest.of(rs.getBytes(1)))
                .optional();
    }

    /** What an instance has not applied yet, read in one snapshot. */
    record Pending(long seq, long purgedThrough, int liveLeases, List<KeyDigest> digests) {}

    static Pending pendingAfter(Connection connection, long applied) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                """
                select s.seq, s.purged_through,
                       (select count(*) from key_cache_leases where expires_at > clock_timestamp()) as live,
                       i.digest
                from key_invalidation_sequence s
                left join key_invalidations i on i.seq > ? and i.seq <= s.seq
                order by i.seq""")) {
            statement.setLong(1, applied);
            try (ResultSet rs = statement.executeQuery()) {
                long seq = 0;
                long purged = 0;
                int live = 0;
                List<KeyDigest> digests = new ArrayList<>();
                while (rs.next()) {
                    seq = rs.getLong(1);
                    purged = rs.getLong(2);
                    live = rs.getInt(3);
                    byte[] digest = rs.getBytes(4);
                    if (digest != null) {
                        digests.add(KeyDigest.of(digest));
                    }
                }
                return new Pending(seq, purged, live, digests);
            }
        }
    }

    /** Records how far this instance applied the log, and wakes the waiting changes. */
    static void recordApplied(Connection connection, UUID instance, long applied) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                """
                with u as (
                    update key_cache_leases set applied_seq = greatest(applied_seq, ?)
                    where instance_id = ? returning 1)
                select pg_notify('"""
                        + APPLIED + "', '') from u")) {
            statement.setLong(1, applied);
            statement.setObject(2, instance);
            statement.executeQuery().close();
        }
    }

    /**
     * Extends this instance's lease to T from now on the database's clock, creating it if it is gone. The
     * applied sequence of an existing lease is left alone: only {@link #recordApplied} moves it, after the drops.
     */
    static void extendLease(Connection connection, UUID instance, long applied, Duration lease) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                """
                insert into key_cache_leases (instance_id, applied_seq, expires_at)
                values (?, ?, clock_timestamp() + make_interval(secs => ?))
                on conflict (instance_id) do update set expires_at = excluded.expires_at""")) {
            statement.setObject(1, instance);
            statement.setLong(2, applied);
            statement.setDouble(3, lease.toNanos() / 1e9);
            statement.executeUpdate();
        }
    }

    /** Gives the lease up on a clean stop: nobody needs to wait for this instance any more. */
    static void releaseLease(Connection connection, UUID instance) throws SQLException {
        try (PreparedStatement statement =
                connection.prepareStatement("delete from key_cache_leases where instance_id = ?")) {
            statement.setObject(1, instance);
            statement.executeUpdate();
        }
    }

    /** The live leases and the lowest sequence they all applied ({@code Long.MAX_VALUE} with none). */
    record Acknowledged(int liveLeases, long minApplied) {}

    static Acknowledged acknowledged(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                        "select count(*), coalesce(min(applied_seq), 9223372036854775807) from key_cache_leases"
                                + " where expires_at > clock_timestamp()");
                ResultSet rs = statement.executeQuery()) {
            rs.next();
            return new Acknowledged(rs.getInt(1), rs.getLong(2));
        }
    }

    /**
     * Deletes leases dead for longer than {@code deadFor}, then the invalidations older than {@code retention}
     * that every live lease applied. An instance whose lease had expired may come back having missed purged ones:
     * {@code purged_through} tells it so, and it empties its cache.
     */
    static void purge(Connection connection, Duration deadFor, Duration retention) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "delete from key_cache_leases where expires_at < clock_timestamp() - make_interval(secs => ?)")) {
            statement.setDouble(1, deadFor.toNanos() / 1e9);
            statement.executeUpdate();
        }
        try (PreparedStatement statement = connection.prepareStatement(
                """
                with horizon as (
                    select least(s.seq, coalesce(
                        (select min(applied_seq) from key_cache_leases where expires_at > clock_timestamp()), s.seq))
                        as upto
                    from key_invalidation_sequence s),
                gone_keys as (
                    delete from key_invalidations
                    where seq <= (select upto from horizon)
                      and created_at < clock_timestamp() - make_interval(secs => ?)
                    returning seq),
                gone_organizations as (
                    delete from organization_invalidations
                    where seq <= (select upto from horizon)
                      and created_at < clock_timestamp() - make_interval(secs => ?)
                    returning seq),
                gone as (select seq from gone_keys union all select seq from gone_organizations)
                update key_invalidation_sequence
                set purged_through = greatest(purged_through, (select max(seq) from gone))
                where exists (select 1 from gone)""")) {
            statement.setDouble(1, retention.toNanos() / 1e9);
            statement.setDouble(2, retention.toNanos() / 1e9);
            statement.executeUpdate();
        }
    }
}
