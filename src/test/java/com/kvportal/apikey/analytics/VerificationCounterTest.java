package com.kvportal.apikey.analytics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The in-memory counts are exact while flushes drain them concurrently, across minute boundaries (where cells are
 * retired): every count is drained exactly once.
 */
class VerificationCounterTest {

    /** A clock that moves 20 s ahead at every read of a drain: minutes pass while verifies count. */
    private static final class Ticking extends Clock {
        final AtomicLong millis =
                new AtomicLong(Instant.parse("2026-11-26T10:00:00Z").toEpochMilli());

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis.get());
        }
    }

    @Test
    void shouldDrainEveryCountExactlyOnceWhileCountingAcrossMinutes() throws Exception {
        Ticking clock = new Ticking();
        VerificationCounter counter = new VerificationCounter(clock, properties(true));
        List<UUID> keys = List.of(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID());
        int threads = 4;
        int perThread = 200_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long[] drained = new long[Outcome.all().length];
        try {
            List<Future<?>> counting = new java.util.ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                counting.add(pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        counter.count(keys.get(i % keys.size()), Outcome.all()[(i + thread) % 3]);
                    }
                }));
            }
            while (!counting.stream().allMatch(Future::isDone)) {
                clock.millis.addAndGet(Duration.ofSeconds(20).toMillis());
                add(drained, counter.drain());
            }
            for (Future<?> f : counting) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        clock.millis.addAndGet(Duration.ofMinutes(2).toMillis());
        add(drained, counter.drain());

        assertThat(drained[0] + drained[1] + drained[2]).isEqualTo((long) threads * perThread);
        assertThat(counter.drain()).isEmpty(); // past minutes are retired once drained
    }

    @Test
    void shouldPutBackTheCountsOfAFailedFlushAndCountNothingWhenOff() {
        Ticking clock = new Ticking();
        VerificationCounter counter = new VerificationCounter(clock, properties(true));
        UUID key = UUID.randomUUID();
        counter.count(key, Outcome.REVOKED);
        counter.count(key, Outcome.REVOKED);
        List<VerificationCounter.Counted> first = counter.drain();
        counter.restore(first);
        List<VerificationCounter.Counted> again = counter.drain();
        assertThat(again).hasSize(1);
        assertThat(again.get(0).counts()[Outcome.REVOKED.ordinal()]).isEqualTo(2);
        assertThat(counter.drain()).isEmpty();

        VerificationCounter off = new VerificationCounter(clock, properties(false));
        off.count(key, Outcome.VALID);
        assertThat(off.drain()).isEmpty();
    }

    private static AnalyticsProperties properties(boolean counting) {
        return new AnalyticsProperties(counting, Duration.ofSeconds(10), Duration.ofHours(1));
    }

    private static void add(long[] into, List<VerificationCounter.Counted> counted) {
        for (VerificationCounter.Counted c : counted) {
            for (int i = 0; i < into.length; i++) {
                into[i] += c.counts()[i];
            }
        }
    }
}
