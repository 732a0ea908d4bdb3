package com.kvportal.apikey.cache;

import com.kvportal.apikey.KeyDigest;
import com.kvportal.apikey.StoredApiKeys;
import com.kvportal.apikey.cache.InvalidationLog.Acknowledged;
import com.kvportal.apikey.cache.InvalidationLog.Pending;
import com.kvportal.common.database.DedicatedConnections;
import com.kvportal.common.scheduling.BackgroundLifecycle;
import com.kvportal.common.scheduling.BackgroundThreads;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Keeps {@link KeyCache} coherent across instances with Chubby's cache leases (docs/design.md, "The key cache"):
 *
 * <ul>
 *   <li>a lease row, renewed every T/3 on a dedicated connection; the cache is trusted until T minus the safety
 *       margin after the start of the last renewal that succeeded, by this instance's monotonic clock;
 *   <li>a listener on another dedicated connection, woken by {@code NOTIFY} when an invalidation commits: it reads
 *       the log past {@code applied_seq}, drops those keys, then records the new {@code applied_seq};
 *   <li>every renewal reads the log too, so that a listener that lost notifications (or its connection) delays
 *       nothing by more than T/3, and an instance whose missed part of the log was purged empties its cache;
 *   <li>a narrowing change waits ({@link #awaitApplied}) until every live lease applied its sequence or expired,
 *       at most T.
 * </ul>
 */
@Component
@RequiredArgsConstructor
class CacheCoherence extends BackgroundLifecycle {

    private static final Logger log = LoggerFactory.getLogger(CacheCoherence.class);

    /** Leases dead for this long are deleted (their log entries may then be purged). */
    private static final Duration DEAD_LEASE_KEPT = Duration.ofMinutes(1);

    private static final long RECONNECT_PAUSE_MILLIS = 100;

    private static final int PRELOAD_BATCH = 10_000;

    private final KeyCache cache;
    private final DedicatedConnections connections;
    private final KeyCacheProperties properties;
    private final StoredApiKeys keys;
    private final LogTail tail;
    private final UUID instanceId = UUID.randomUUID();

    /** Serializes catching up (the listener and the renewal both do it), so that applied only moves forward. */
    private final ReentrantLock catchingUp = new ReentrantLock();

    /** How far this instance applied the log; -1 until the first catch-up (which empties the cache). */
    private long applied = -1;

    private final ConcurrentLinkedQueue<Waiter> waiters = new ConcurrentLinkedQueue<>();

    private volatile int liveLeases;
    private @Nullable ScheduledExecutorService renewal;
    private @Nullable Thread listener;
    private @Nullable Connection leaseConnection;
    private volatile @Nullable Connection listenerConnection;
    private long lastPurge = System.nanoTime();
    private boolean preloadStarted;

    /** A change waiting for the instances to apply its invalidation. */
    static final class Waiter {
        final long seq;
        final CompletableFuture<Void> applied = new CompletableFuture<>();

        Waiter(long seq) {
            this.seq = seq;
        }
    }

    /** Registers a wait for {@code seq} before its transaction commits, so that no acknowledgement is missed. */
    Waiter expect(long seq) {
        Waiter waiter = new Waiter(seq);
        waiters.add(waiter);
        return waiter;
    }

    void forget(Waiter waiter) {
        waiters.remove(waiter);
    }

    /**
     * Waits until every live lease applied the waiter's sequence or expired, at most T + T/3: by then, any instance
     * that has not applied it stopped trusting its lease (its last renewal started before the change committed), and
     * so did any holder outside the service (its lease is renewed no longer once it leaves an event unacknowledged for
     * T/3, {@link VerifyLeases}).
     *
     * @return whether every live lease acknowledged it in time
     */
    boolean awaitApplied(Waiter waiter) {
        try {
            waiter.applied.get(properties.longestWait().toNanos(), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            log.warn(
                    "Invalidation {} not acknowledged by every live lease within {}; answering: those instances and"
                            + " holders no longer trust their lease",
                    waiter.seq,
                    properties.longestWait());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        } finally {
            waiters.remove(waiter);
        }
    }

    UUID instanceId() {
        return instanceId;
    }

    /** A connection of this instance's cache outside the pool, named for {@code pg_stat_activity}. */
    private Connection open(String role) throws SQLException {
        return connections.open("kv-portal key-cache " + role + " " + instanceId);
    }

    int liveLeases() {
        return liveLeases;
    }

    // --- the lease

    private void renew() {
        long started = System.nanoTime();
        try {
            Connection connection = leaseConnection();
            InvalidationLog.extendLease(connection, instanceId, currentApplied(), properties.lease());
            // the lease is extended (and visible) before the log is read: a change that saw the lease expired
            // committed before this read, so it is among what catchUp drops
            catchUp(connection);
            cache.trustUntil(started + properties.trusted().toNanos());
            if (!waiters.isEmpty()) {
                // normally the listener answers waiters at once; if it is reconnecting, they wait T/3, not T
                checkWaiters(connection);
            }
            if (properties.preload() && !preloadStarted) {
                preloadStarted = true;
                BackgroundThreads.start("key-cache-preload", this::preload);
            }
            if (System.nanoTime() - lastPurge > properties.purgeInterval().toNanos()) {
                lastPurge = System.nanoTime();
                InvalidationLog.purge(connection, DEAD_LEASE_KEPT, properties.logRetention());
            }
        } catch (SQLException | RuntimeException e) {
            log.warn(
                    "Could not renew the key cache lease ({}); verify reads the database until it is renewed",
                    e.toString());
            closeQuietly(leaseConnection);
            leaseConnection = null;
        }
    }

    private Connection leaseConnection() throws SQLException {
        Connection connection = leaseConnection;
        if (connection == null || connection.isClosed()) {
            connection = open("lease");
            leaseConnection = connection;
        }
        return connection;
    }

    private long currentApplied() {
        catchingUp.lock();
        try {
            return Math.max(applied, 0);
        } finally {
            catchingUp.unlock();
        }
    }

    /** Drops what the log says changed since {@code applied}, then records the new {@code applied}. */
    private void catchUp(Connection connection) throws SQLException {
        catchingUp.lock();
        try {
            Pending pending = InvalidationLog.pendingAfter(connection, Math.max(applied, 0));
            liveLeases = pending.liveLeases();
            if (applied < 0 || applied < pending.purgedThrough()) {
                // the first catch-up, or part of what was missed is gone from the log: forget everything
                cache.clear();
            } else if (!pending.digests().isEmpty()) {
                cache.drop(pending.digests());
            }
            if (pending.seq() != applied) {
                applied = pending.seq();
                InvalidationLog.recordApplied(connection, instanceId, applied);
            }
            tail.advanced(applied);
        } finally {
            catchingUp.unlock();
        }
    }

    /**
     * Fills the cache with unrevoked keys, a batch at a time; a batch read while an invalidation was applied is
     * read again, as any lookup that missed would be.
     */
    private void preload() {
        byte[] after = new byte[0];
        long loaded = 0;
        long started = System.nanoTime();
        try {
            while (isRunning() && loaded < properties.maximumSize()) {
                long epoch = cache.epoch();
                var batch = keys.unrevokedAfter(after, PRELOAD_BATCH);
                if (batch.isEmpty()) {
                    break;
                }
                if (cache.putAll(batch, epoch)) {
                    loaded += batch.size();
                    KeyDigest last = null;
                    for (KeyDigest digest : batch.keySet()) {
                        last = digest;
                    }
                    after = last.bytes();
                }
            }
            log.info("Key cache preloaded with {} keys in {} ms", loaded, (System.nanoTime() - started) / 1_000_000);
        } catch (RuntimeException e) {
            log.warn("Key cache preload stopped after {} keys ({})", loaded, e.toString());
        }
    }

    // --- the listener

    private void listen() {
        while (isRunning()) {
            try (Connection connection = open("listener")) {
                listenerConnection = connection;
                try (Statement statement = connection.createStatement()) {
                    statement.execute("listen " + InvalidationLog.INVALIDATED + "; listen " + InvalidationLog.APPLIED);
                }
                PGConnection notifications = connection.unwrap(PGConnection.class);
                // whatever was announced while this listener was not listening is in the log
                catchUp(connection);
                checkWaiters(connection);
                while (isRunning()) {
                    PGNotification[] received = notifications.getNotifications(waiters.isEmpty() ? 500 : 10);
                    boolean invalidated = false;
                    if (received != null) {
                        for (PGNotification notification : received) {
                            invalidated |= InvalidationLog.INVALIDATED.equals(notification.getName());
                        }
                    }
                    if (invalidated) {
                        catchUp(connection);
                    }
                    if (!waiters.isEmpty()) {
                        checkWaiters(connection);
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (isRunning()) {
                    log.warn(
                            "The key cache listener lost its connection ({}); reconnecting (the lease catches up)",
                            e.toString());
                    sleep(RECONNECT_PAUSE_MILLIS);
                }
            } finally {
                listenerConnection = null;
            }
        }
    }

    private void checkWaiters(Connection connection) throws SQLException {
        Acknowledged acknowledged = InvalidationLog.acknowledged(connection);
        liveLeases = acknowledged.liveLeases();
        for (Waiter waiter : waiters) {
            if (waiter.seq <= acknowledged.minApplied()) {
                waiter.applied.complete(null);
                waiters.remove(waiter);
            }
        }
    }

    // --- lifecycle

    @Override
    public void start() {
        super.start();
        ScheduledExecutorService executor =
                Executors.newSingleThreadScheduledExecutor(BackgroundThreads.named("key-cache-lease"));
        long every = properties.renewEvery().toNanos();
        executor.scheduleWithFixedDelay(this::renew, 0, every, TimeUnit.NANOSECONDS);
        renewal = executor;
        listener = BackgroundThreads.start("key-cache-listener", this::listen);
    }

    @Override
    public void stop() {
        cache.distrust();
        super.stop();
        ScheduledExecutorService executor = renewal;
        if (executor != null) {
            executor.shutdownNow();
            try {
                executor.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        closeQuietly(listenerConnection);
        Thread thread = listener;
        if (thread != null) {
            try {
                thread.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try (Connection connection = open("release")) {
            InvalidationLog.releaseLease(connection, instanceId);
        } catch (SQLException e) {
            log.warn("Could not release the key cache lease; it expires by itself", e);
        }
        closeQuietly(leaseConnection);
    }

    /** Stops after the web server drained its requests, so that no request waits on a stopped listener. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 4096;
    }

    private static void closeQuietly(@Nullable Connection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // closing a broken connection
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
