package com.kvportal.verifier;

import java.util.function.LongSupplier;

/**
 * How long the cache may be trusted, by this process's own monotonic clock ({@link System#nanoTime()}): until the
 * start of the last lease call that succeeded (taking or renewing it) plus its ttl, less a safety margin of a tenth
 * of the ttl (at least 100 ms). The service keeps the lease at least ttl after it received that call, which is after
 * it was started, so this process stops trusting its cache before the service stops waiting for it.
 */
final class TrustClock {

    private final LongSupplier nanoClock;
    private volatile long trustedUntil;

    TrustClock(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
        this.trustedUntil = nanoClock.getAsLong();
    }

    static long marginMillis(long ttlMillis) {
        return Math.max(ttlMillis / 10, 100);
    }

    long now() {
        return nanoClock.getAsLong();
    }

    boolean trusted() {
        return nanoClock.getAsLong() - trustedUntil < 0;
    }

    /** A lease call started at {@code startNanos} succeeded with this ttl. */
    void renewed(long startNanos, long ttlMillis) {
        trustedUntil = startNanos + (ttlMillis - marginMillis(ttlMillis)) * 1_000_000L;
    }

    /** The lease is gone: trust nothing from now on. */
    void lapse() {
        trustedUntil = nanoClock.getAsLong();
    }

    /** Nanoseconds of trust left (0 or less: none). */
    long remainingNanos() {
        return trustedUntil - nanoClock.getAsLong();
    }
}
