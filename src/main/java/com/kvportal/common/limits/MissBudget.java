package com.kvportal.common.limits;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.springframework.stereotype.Component;

/**
 * Per client address, how many lookups that find nothing may reach the database ({@code kvportal.limits.key-misses-*}):
 * a flood of made-up keys that pass the checksum would otherwise cost a query each and take the connection pool. A
 * lookup takes a token before it goes to the database and gives it back when it finds something, so known keys never
 * spend the budget; once it is spent, the address's lookups that memory cannot answer are refused with 429 until it
 * refills. Counted in memory, per instance (a database budget would cost the very round trip it saves).
 */
@Component
public class MissBudget {

    /** Enough for every address of a busy instance; an evicted bucket starts full again. */
    private static final int MAX_ADDRESSES = 100_000;

    private final long intervalNanos;
    private final long windowNanos;
    private final Cache<String, AtomicLong> arrivals;

    MissBudget(LimitProperties settings) {
        int misses = settings.keyMissesPerAddress();
        this.windowNanos = settings.keyMissWindow().toNanos();
        this.intervalNanos = misses <= 0 ? 0 : Math.max(1, windowNanos / misses);
        this.arrivals = Caffeine.newBuilder()
                .maximumSize(MAX_ADDRESSES)
                .expireAfterAccess(settings.keyMissWindow())
                .build();
    }

    /**
     * Runs {@code database} on the budget of {@code client}.
     *
     * @throws TooManyRequests when the client has no lookup left that may find nothing
     */
    public <T> Optional<T> lookUp(String client, Supplier<Optional<T>> database) {
        if (intervalNanos == 0) {
            return database.get();
        }
        // a bucket is a theoretical arrival time (the generic cell rate algorithm); a new one is full
        AtomicLong arrival = arrivals.get(client, address -> new AtomicLong(System.nanoTime()));
        take(arrival);
        Optional<T> found;
        try {
            found = database.get();
        } catch (RuntimeException e) {
            arrival.addAndGet(-intervalNanos);
            throw e;
        }
        if (found.isPresent()) {
            arrival.addAndGet(-intervalNanos);
        }
        return found;
    }

    private void take(AtomicLong arrival) {
        while (true) {
            long now = System.nanoTime();
            long current = arrival.get();
            long next = Math.max(current - now, 0) + now + intervalNanos;
            if (next - now > windowNanos) {
                throw new TooManyRequests(Duration.ofNanos(next - windowNanos - now));
            }
            if (arrival.compareAndSet(current, next)) {
                return;
            }
        }
    }
}
