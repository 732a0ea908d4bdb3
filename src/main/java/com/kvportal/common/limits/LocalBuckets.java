package com.kvportal.common.limits;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Token buckets per client address kept in this instance's memory: {@code requests} per {@code window}, as the
 * generic cell rate algorithm (a full window's worth may come at once, then they refill evenly). Deciding costs no
 * query, so a flood is refused without touching the database; the budget is each instance's own, so a limit that must
 * hold across instances is counted in the database behind it.
 */
final class LocalBuckets {

    /** Enough for every address of a busy instance; an evicted bucket starts full again. */
    private static final int MAX_ADDRESSES = 100_000;

    private final long intervalNanos;
    private final long windowNanos;
    private final Cache<String, AtomicLong> arrivals;

    /** {@code requests} 0 or less: every request goes ahead. */
    LocalBuckets(int requests, Duration window) {
        this.windowNanos = window.toNanos();
        this.intervalNanos = requests <= 0 ? 0 : Math.max(1, windowNanos / requests);
        this.arrivals = Caffeine.newBuilder()
                .maximumSize(MAX_ADDRESSES)
                .expireAfterAccess(window)
                .build();
    }

    /** Takes one request from the client's bucket: empty when it may go ahead, else how long until one would. */
    Optional<Duration> take(String client) {
        if (intervalNanos == 0) {
            return Optional.empty();
        }
        // a bucket is a theoretical arrival time; a new one is full
        AtomicLong arrival = arrivals.get(client, address -> new AtomicLong(System.nanoTime()));
        while (true) {
            long now = System.nanoTime();
            long current = arrival.get();
            long next = Math.max(current - now, 0) + now + intervalNanos;
            if (next - now > windowNanos) {
                return Optional.of(Duration.ofNanos(next - windowNanos - now));
            }
            if (arrival.compareAndSet(current, next)) {
                return Optional.empty();
            }
        }
    }

    /** Gives back a request taken from the client's bucket (it turned out not to count). */
    void giveBack(String client) {
        if (intervalNanos == 0) {
            return;
        }
        AtomicLong arrival = arrivals.getIfPresent(client);
        if (arrival != null) {
            arrival.addAndGet(-intervalNanos);
        }
    }
}
