package com.kvportal.apikey.cache;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Verify's in-memory key cache and the lease protocol that keeps it coherent across instances (docs/design.md,
 * "The key cache").
 *
 * @param lease T: how long a lease lasts on the database's clock; renewed every T/3, and the longest a narrowing
 *     change waits for the acknowledgements of the other instances
 * @param safetyMargin how much earlier than T an instance stops trusting its own lease: bounds the clock drift
 *     between an instance and the database over one lease
 * @param maximumSize how many keys each instance keeps in memory at most (W-TinyLFU evicts the rest)
 * @param negativeTtl how long an unknown well-formed key stays known as unknown
 * @param negativeMaximumSize how many unknown keys each instance remembers at most
 * @param purgeInterval how often an instance purges acknowledged invalidations and dead leases
 * @param logRetention how long an invalidation stays in the log at least, even once every lease applied it
 * @param preload whether an instance fills its cache with the database's unrevoked keys (up to its size) as soon
 *     as it holds its lease, instead of key by key as they are presented
 */
@ConfigurationProperties("kvportal.key-cache")
record KeyCacheProperties(
        @DefaultValue("3s") Duration lease,
        @DefaultValue("500ms") Duration safetyMargin,
        @DefaultValue("200000") long maximumSize,
        @DefaultValue("2s") Duration negativeTtl,
        @DefaultValue("10000") long negativeMaximumSize,
        @DefaultValue("1m") Duration purgeInterval,
        @DefaultValue("10m") Duration logRetention,
        @DefaultValue("false") boolean preload) {

    KeyCacheProperties {
        require(lease.compareTo(Duration.ofMillis(300)) >= 0, "lease must be at least 300ms");
        require(
                !safetyMargin.isNegative() && safetyMargin.multipliedBy(2).compareTo(lease) < 0,
                "safety-margin must be at least 0 and less than half the lease, so that a lease renewed every"
                        + " lease/3 stays trusted between renewals");
        require(maximumSize >= 0, "maximum-size must not be negative");
        require(!negativeTtl.isNegative(), "negative-ttl must not be negative");
        require(negativeMaximumSize >= 0, "negative-maximum-size must not be negative");
        require(!purgeInterval.isNegative() && !purgeInterval.isZero(), "purge-interval must be positive");
        require(!logRetention.isNegative(), "log-retention must not be negative");
    }

    /** How often the lease is renewed: a third of it, so that two renewals may fail before it lapses. */
    Duration renewEvery() {
        return lease.dividedBy(3);
    }

    /**
     * The longest a holder outside the service may leave an event unacknowledged and still have its lease renewed:
     * a third of it, the interval at which it renews.
     */
    Duration acknowledgeWithin() {
        return lease.dividedBy(3);
    }

    /**
     * The longest a narrowing change waits: a holder's last renewal may have come just before its oldest
     * unacknowledged event became too old ({@link #acknowledgeWithin}), and lasts T from then.
     */
    Duration longestWait() {
        return lease.plus(acknowledgeWithin());
    }

    /** How long this instance trusts a lease whose renewal it started at a given moment. */
    Duration trusted() {
        return lease.minus(safetyMargin);
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException("kvportal.key-cache: " + message);
        }
    }
}
