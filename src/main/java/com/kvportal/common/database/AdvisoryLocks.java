package com.kvportal.common.database;

import jakarta.annotation.PreDestroy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.stereotype.Component;

/**
 * Work that runs one at a time per key across every instance on the database: a PostgreSQL session-level advisory
 * lock ({@code pg_advisory_lock(class, hashtext(key))}) held while the work runs. The lock is held on a connection
 * outside the pool, from a small set of this instance's own ({@link AdvisoryLockProperties#connections()}), so that
 * the work may call what uses the pool (the payment sandbox answers from this very service) without holding a pooled
 * connection. A lock lives as long as its session: released after the work, or with the session when an instance
 * dies, so that nothing is left behind to clean up. The wait is bounded ({@link AdvisoryLockProperties#lockWait()}):
 * {@code pg_try_advisory_lock} again and again, backing off, until the lock is taken or the time is up.
 */
@Component
public class AdvisoryLocks {

    private static final Logger log = LoggerFactory.getLogger(AdvisoryLocks.class);
    private static final long FIRST_BACKOFF_MILLIS = 5;
    private static final long MOST_BACKOFF_MILLIS = 100;

    private final DedicatedConnections connections;
    private final AdvisoryLockProperties properties;
    private final Semaphore inUse;
    private final BlockingQueue<Connection> idle;

    AdvisoryLocks(DedicatedConnections connections, AdvisoryLockProperties properties) {
        this.connections = connections;
        this.properties = properties;
        this.inUse = new Semaphore(properties.connections(), true);
        this.idle = new ArrayBlockingQueue<>(properties.connections());
    }

    /**
     * Runs {@code work} holding the lock of ({@code lockClass}, {@code key}), and answers what it answers; when the
     * lock is not taken in time, throws what {@code busy} supplies and runs nothing. A database that cannot be reached
     * throws a {@link DataAccessResourceFailureException} (503 {@code database_unavailable}).
     */
    public <T> T holding(int lockClass, UUID key, Supplier<T> work, Supplier<? extends RuntimeException> busy) {
        long deadline = System.nanoTime() + properties.lockWait().toNanos();
        if (!acquirePermit(deadline)) {
            throw busy.get();
        }
        Connection connection = null;
        try {
            connection = borrow();
            if (!lock(connection, lockClass, key, deadline)) {
                throw busy.get();
            }
            try {
                return work.get();
            } finally {
                if (!unlock(connection, lockClass, key)) {
                    close(connection);
                    connection = null;
                }
            }
        } catch (SQLException e) {
            close(connection);
            connection = null;
            throw new DataAccessResourceFailureException("The advisory lock of " + key + " failed", e);
        } finally {
            if (connection != null && !idle.offer(connection)) {
                close(connection);
            }
            inUse.release();
        }
    }

    private boolean acquirePermit(long deadline) {
        try {
            return inUse.tryAcquire(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** An idle connection that still answers, or a new one. */
    private Connection borrow() {
        for (Connection connection = idle.poll(); connection != null; connection = idle.poll()) {
            try {
                if (connection.isValid(1)) {
                    return connection;
                }
            } catch (SQLException e) {
                // dropped below
            }
            close(connection);
        }
        try {
            return connections.open("kv-portal advisory-locks");
        } catch (SQLException e) {
            throw new CannotGetJdbcConnectionException("No connection for an advisory lock", e);
        }
    }

    /** Tries the lock until it is taken (true) or the deadline passes (false), backing off between tries. */
    private static boolean lock(Connection connection, int lockClass, UUID key, long deadline) throws SQLException {
        long backoff = FIRST_BACKOFF_MILLIS;
        while (!tryLock(connection, lockClass, key)) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                return false;
            }
            try {
                Thread.sleep(Math.min(backoff, left));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            backoff = Math.min(backoff * 2, MOST_BACKOFF_MILLIS);
        }
        return true;
    }

    /** Takes the lock of ({@code lockClass}, {@code key}) on the session if no other session holds it. */
    static boolean tryLock(Connection connection, int lockClass, UUID key) throws SQLException {
        return call(connection, "select pg_try_advisory_lock(?, hashtext(?))", lockClass, key);
    }

    /** Releases the lock; false when the session cannot say it did (the connection is then closed, which does). */
    private static boolean unlock(Connection connection, int lockClass, UUID key) {
        try {
            if (call(connection, "select pg_advisory_unlock(?, hashtext(?))", lockClass, key)) {
                return true;
            }
            log.warn("The advisory lock of {} was no longer held by its session", key);
        } catch (SQLException e) {
            log.warn("Releasing the advisory lock of {} failed; closing its session frees it: {}", key, e.toString());
        }
        return false;
    }

    private static boolean call(Connection connection, String sql, int lockClass, UUID key) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setInt(1, lockClass);
            statement.setString(2, key.toString());
            try (ResultSet result = statement.executeQuery()) {
                result.next();
                return result.getBoolean(1);
            }
        }
    }

    private static void close(@Nullable Connection connection) {
        if (connection == null) {
            return;
        }
        try {
            connection.close();
        } catch (SQLException e) {
            log.debug("Closing an advisory lock connection failed: {}", e.toString());
        }
    }

    @PreDestroy
    void closeIdle() {
        for (Connection connection = idle.poll(); connection != null; connection = idle.poll()) {
            close(connection);
        }
    }
}
