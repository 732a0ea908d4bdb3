package com.kvportal.common.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.kvportal.support.TestDatabase;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The advisory locks on a real PostgreSQL: held while the work runs (a second taker waits until the first releases),
 * bounded waits that run nothing, and a lock whose session is closed without unlocking freed with it.
 */
class AdvisoryLocksTest {

    private static final int LOCK_CLASS = 4242;

    private final UUID key = UUID.randomUUID();
    private HikariDataSource dataSource;
    private DedicatedConnections connections;
    private final List<AdvisoryLocks> made = new ArrayList<>();

    @BeforeEach
    void database() throws SQLException {
        dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(TestDatabase.freshDatabaseUrl());
        connections = new DedicatedConnections(dataSource);
    }

    @AfterEach
    void close() {
        made.forEach(AdvisoryLocks::closeIdle);
        dataSource.close();
    }

    private AdvisoryLocks locks(Duration wait) {
        AdvisoryLocks locks = new AdvisoryLocks(connections, new AdvisoryLockProperties(2, wait));
        made.add(locks);
        return locks;
    }

    private static IllegalStateException busy() {
        return new IllegalStateException("busy");
    }

    private long heldInPgLocks() throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(
                        "select count(*) from pg_locks where locktype = 'advisory' and classid = ? and granted")) {
            statement.setInt(1, LOCK_CLASS);
            try (ResultSet result = statement.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        }
    }

    @Test
    void shouldMakeASecondTakerWaitUntilTheFirstHasReleasedTheLock() throws Exception {
        AdvisoryLocks first = locks(Duration.ofSeconds(20));
        AdvisoryLocks second = locks(Duration.ofSeconds(20)); // another instance: its own connections
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger running = new AtomicInteger();
        CompletableFuture<String> one = CompletableFuture.supplyAsync(() -> first.holding(
                LOCK_CLASS,
                key,
                () -> {
                    running.incrementAndGet();
                    holding.countDown();
                    await(release);
                    running.decrementAndGet();
                    return "first";
                },
                AdvisoryLocksTest::busy));
        assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(heldInPgLocks()).as("the lock in pg_locks").isOne();

        CompletableFuture<Integer> two = CompletableFuture.supplyAsync(
                () -> second.holding(LOCK_CLASS, key, running::incrementAndGet, AdvisoryLocksTest::busy));
        Thread.sleep(1500);
        assertThat(two).as("the second waits while the first holds the lock").isNotDone();

        release.countDown();
        assertThat(one.get(10, TimeUnit.SECONDS)).isEqualTo("first");
        assertThat(two.get(10, TimeUnit.SECONDS)).as("the second ran alone").isOne();
        assertThat(heldInPgLocks()).as("both released").isZero();
        // another key was never in the way
        assertThat(first.holding(LOCK_CLASS, UUID.randomUUID(), () -> "other", AdvisoryLocksTest::busy))
                .isEqualTo("other");
    }

    @Test
    void shouldGiveUpAfterTheWaitRunningNothingAndTakeTheLockOnceItsHoldersSessionIsClosedWithoutUnlocking()
            throws Exception {
        AdvisoryLocks locks = locks(Duration.ofMillis(700));
        AtomicInteger ran = new AtomicInteger();
        Connection killed = connections.open("a killed instance");
        assertThat(AdvisoryLocks.tryLock(killed, LOCK_CLASS, key)).isTrue();

        long started = System.nanoTime();
        assertThatThrownBy(() -> locks.holding(LOCK_CLASS, key, ran::incrementAndGet, AdvisoryLocksTest::busy))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("busy");
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .isBetween(Duration.ofMillis(600), Duration.ofSeconds(5));
        assertThat(ran).as("nothing ran").hasValue(0);

        killed.close(); // its session ends, never having unlocked
        assertThat(locks.holding(LOCK_CLASS, key, ran::incrementAndGet, AdvisoryLocksTest::busy))
                .isOne();
        try (Connection other = connections.open("another instance")) {
            assertThat(AdvisoryLocks.tryLock(other, LOCK_CLASS, key))
                    .as("released after the work")
                    .isTrue();
        }
    }

    @Test
    void shouldAnswerTheDatabaseAwayWhenNoConnectionCanBeOpened() {
        HikariDataSource nowhere = new HikariDataSource();
        nowhere.setJdbcUrl("jdbc:postgresql://127.0.0.1:1/none?user=none");
        try {
            AdvisoryLocks locks =
                    new AdvisoryLocks(dedicated(nowhere), new AdvisoryLockProperties(1, Duration.ofSeconds(2)));
            AtomicInteger ran = new AtomicInteger();
            assertThatThrownBy(() -> locks.holding(LOCK_CLASS, key, ran::incrementAndGet, AdvisoryLocksTest::busy))
                    .satisfies(failure ->
                            assertThat(DatabaseFailures.isUnavailable(failure)).isTrue());
            assertThat(ran).hasValue(0);
        } finally {
            nowhere.close();
        }
    }

    private static DedicatedConnections dedicated(HikariDataSource dataSource) {
        try {
            return new DedicatedConnections(dataSource);
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
