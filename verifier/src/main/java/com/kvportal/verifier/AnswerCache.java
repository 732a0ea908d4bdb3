package com.kvportal.verifier;

import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Verify's answers by the key's digest, and the one rule that keeps them from outliving a change: every drop first
 * moves the generation on, and an answer asked of the service is kept only if no drop happened while it was asked
 * ({@link #put}). So an answer that left the service before a change, and arrived after the change's event was
 * handled and acknowledged, is never kept. Bounded: beyond {@code capacity} entries new answers are not kept (the
 * service is asked for them every time) until an event or a new lease makes room.
 *
 * <p>And a second rule: after an event, answers of what it named are not kept for a while ({@link #quarantine}).
 * The holder may handle an event before every instance of the service has applied its change (the change answers
 * only once they all have), and an instance that has not yet may answer the old state to a call made after the drop.
 */
final class AnswerCache {

    static final long NEVER = Long.MAX_VALUE;
    private static final Verification IP_NOT_ALLOWED = Verification.refused("ip_not_allowed");

    /**
     * One kept answer: a refusal (keyId and organizationId null), or a valid key's answer with its allowed
     * addresses (null: any) and the wall-clock milliseconds from which it must be asked again (its expiry).
     */
    record Entry(
            Verification answer, UUID keyId, UUID organizationId, AllowedAddresses allowed, long askAgainAtMillis) {

        /** The answer for a client at this address, or null when the service must be asked (the key expires). */
        Verification answer(String clientIp) {
            if (askAgainAtMillis != NEVER && System.currentTimeMillis() >= askAgainAtMillis) {
                return null;
            }
            if (allowed != null && !allowed.allow(clientIp)) {
                return IP_NOT_ALLOWED;
            }
            return answer;
        }
    }

    private final ConcurrentHashMap<Digest, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicLong generation = new AtomicLong();
    private final int capacity;
    private final LongSupplier nanoClock;

    /** Key and organization ids whose answers are not kept from calls started before the moment (nanos) mapped. */
    private final ConcurrentHashMap<UUID, Long> quarantined = new ConcurrentHashMap<>();

    /** No answer is kept from calls started before this moment (nanos): after a reset. */
    private volatile long keepNothingBefore;

    AnswerCache(int capacity, LongSupplier nanoClock) {
        this.capacity = capacity;
        this.nanoClock = nanoClock;
        this.keepNothingBefore = nanoClock.getAsLong();
    }

    /** Read before asking the service; handed to {@link #put} with its answer. */
    long generation() {
        return generation.get();
    }

    Entry get(Digest digest) {
        return entries.get(digest);
    }

    /**
     * Keeps the answer of a call started at {@code askedAtNanos}, unless a drop happened since {@code
     * generationAtAsk}, what it names is quarantined, or the cache is full.
     */
    boolean put(Digest digest, Entry entry, long generationAtAsk, long askedAtNanos) {
        if (generation.get() != generationAtAsk
                || entries.size() >= capacity
                || askedAtNanos - keepNothingBefore < 0
                || quarantinedAt(entry.keyId(), askedAtNanos)
                || quarantinedAt(entry.organizationId(), askedAtNanos)) {
            return false;
        }
        entries.put(digest, entry);
        if (generation.get() != generationAtAsk) {
            // a drop ran meanwhile: it may have missed this entry, so it goes (drops never run the other way round)
            entries.remove(digest, entry);
            return false;
        }
        return true;
    }

    /**
     * Drops the answers of one key ({@code key.changed}), and keeps none of it from calls started in the next {@code
     * quarantineNanos}.
     */
    void dropKey(UUID keyId, long quarantineNanos) {
        quarantine(keyId, quarantineNanos);
        generation.incrementAndGet();
        entries.values().removeIf(entry -> keyId.equals(entry.keyId()));
    }

    /** As {@link #dropKey}, for every key of one organization ({@code organization.changed}). */
    void dropOrganization(UUID organizationId, long quarantineNanos) {
        quarantine(organizationId, quarantineNanos);
        generation.incrementAndGet();
        entries.values().removeIf(entry -> organizationId.equals(entry.organizationId()));
    }

    /** Drops everything ({@code reset}), and keeps nothing from calls started in the next {@code quarantineNanos}. */
    void reset(long quarantineNanos) {
        keepNothingBefore = nanoClock.getAsLong() + quarantineNanos;
        clear();
    }

    /** Drops everything (a lost lease, close). */
    void clear() {
        generation.incrementAndGet();
        entries.clear();
    }

    private void quarantine(UUID id, long quarantineNanos) {
        long now = nanoClock.getAsLong();
        quarantined.values().removeIf(until -> until - now <= 0); // the few ids of the last seconds stay
        quarantined.merge(id, now + quarantineNanos, (a, b) -> b - a > 0 ? b : a);
    }

    private boolean quarantinedAt(UUID id, long askedAtNanos) {
        if (id == null) {
            return false;
        }
        Long until = quarantined.get(id);
        return until != null && askedAtNanos - until < 0;
    }

    int size() {
        return entries.size();
    }
}
