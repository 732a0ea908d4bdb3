package com.kvportal.apikey.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.kvportal.apikey.KeyDigest;
import com.kvportal.apikey.StoredKey;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.springframework.stereotype.Component;

/**
 * The keys this instance has looked up, in memory, used only while the instance's lease is trusted (see
 * {@link CacheCoherence}). Known keys stay until evicted or invalidated; unknown well-formed digests are remembered
 * briefly (a new key's digest was never presented, so it is never among them).
 *
 * <p>A lookup that missed fills the cache only if no invalidation was applied while it read the database: a read
 * that began before a narrowing change committed must not put the old state back after the change was dropped.
 */
@Component
public class KeyCache {

    private final Cache<KeyDigest, StoredKey> known;
    private final Cache<KeyDigest, Boolean> unknown;
    private final Object lock = new Object();

    /** Bumped under {@link #lock} by every invalidation; read before a database lookup, compared before its put. */
    private volatile long epoch;

    /** {@link System#nanoTime()} until which the lease is trusted; 0 at start: nothing is served from memory. */
    private volatile long trustedUntil;

    private volatile boolean trusted;

    private final LongAdder fromMemory = new LongAdder();
    private final LongAdder fromDatabase = new LongAdder();

    KeyCache(KeyCacheProperties properties) {
        this.known = Caffeine.newBuilder()
                .maximumSize(properties.maximumSize())
                .recordStats()
                .build();
        this.unknown = Caffeine.newBuilder()
                .maximumSize(properties.negativeMaximumSize())
                .expireAfterWrite(properties.negativeTtl())
                .recordStats()
                .build();
    }

    /** The key with this digest: from memory while the lease is trusted, else from {@code database}. */
    public Optional<StoredKey> find(KeyDigest digest, Function<KeyDigest, Optional<StoredKey>> database) {
        StoredKey key = known.getIfPresent(digest);
        // the lease is checked after the entry is read: an entry read under a trusted lease was current then
        if (key != null && leaseTrusted()) {
            fromMemory.increment();
            return Optional.of(key);
        }
        if (key == null && unknown.getIfPresent(digest) != null && leaseTrusted()) {
            fromMemory.increment();
            return Optional.empty();
        }
        fromDatabase.increment();
        long before = epoch;
        Optional<StoredKey> loaded = database.apply(digest);
        synchronized (lock) {
            if (epoch == before) {
                if (loaded.isPresent()) {
                    known.put(digest, loaded.get());
                } else {
                    unknown.put(digest, Boolean.TRUE);
                }
            }
        }
        return loaded;
    }

    /** The current epoch, to read before a database read whose rows are then given to {@link #putAll}. */
    long epoch() {
        return epoch;
    }

    /**
     * Caches rows read from the database after {@code epochBefore} was read, unless an invalidation was applied
     * since (then the caller reads them again).
     *
     * @return whether they were cached
     */
    boolean putAll(Map<KeyDigest, StoredKey> rows, long epochBefore) {
        synchronized (lock) {
            if (epoch != epochBefore) {
                return false;
            }
            known.putAll(rows);
            return true;
        }
    }

    /** Forgets these keys; lookups that are reading the database right now will not cache what they read. */
    void drop(Collection<KeyDigest> digests) {
        synchronized (lock) {
            epoch++;
            known.invalidateAll(digests);
            unknown.invalidateAll(digests);
        }
    }

    /** Forgets every key: when this instance can no longer tell which ones changed. */
    void clear() {
        synchronized (lock) {
            epoch++;
            known.invalidateAll();
            unknown.invalidateAll();
        }
    }

    /** Serve from memory until this {@link System#nanoTime()} at most. */
    void trustUntil(long nanoTime) {
        trustedUntil = nanoTime;
        trusted = true;
    }

    /** Stop serving from memory at once (shutdown). */
    void distrust() {
        trusted = false;
    }

    boolean leaseTrusted() {
        return trusted && System.nanoTime() - trustedUntil < 0;
    }

    double answeredFromMemory() {
        return fromMemory.sum();
    }

    double answeredFromDatabase() {
        return fromDatabase.sum();
    }

    Cache<KeyDigest, StoredKey> known() {
        return known;
    }

    Cache<KeyDigest, Boolean> unknown() {
        return unknown;
    }
}
