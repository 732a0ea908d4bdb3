package com.kvportal.verifier;

import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Verify's answers by the key's digest, and the one rule that keeps them from outliving a change: every drop first
 * moves the generation on, and an answer asked of the service is kept only if no drop happened while it was asked
 * ({@link #put}). So an answer that left the service before a change, and arrived after the change's event was
 * handled and acknowledged, is never kept. Bounded: beyond {@code capacity} entries new answers are not kept (the
 * service is asked for them every time) until an event or a new lease makes room.
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

    AnswerCache(int capacity) {
        this.capacity = capacity;
    }

    /** Read before asking the service; handed to {@link #put} with its answer. */
    long generation() {
        return generation.get();
    }

    Entry get(Digest digest) {
        return entries.get(digest);
    }

    /** Keeps the answer unless a drop happened since {@code generationAtAsk} (or the cache is full). */
    boolean put(Digest digest, Entry entry, long generationAtAsk) {
        if (generation.get() != generationAtAsk || entries.size() >= capacity) {
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

    /** Drops the answers of one key ({@code key.changed}). */
    void dropKey(UUID keyId) {
        generation.incrementAndGet();
        entries.values().removeIf(entry -> keyId.equals(entry.keyId()));
    }

    /** Drops the answers of every key of one organization ({@code organization.changed}). */
    void dropOrganization(UUID organizationId) {
        generation.incrementAndGet();
        entries.values().removeIf(entry -> organizationId.equals(entry.organizationId()));
    }

    /** Drops everything ({@code reset}, a lost lease, close). */
    void clear() {
        generation.incrementAndGet();
        entries.clear();
    }

    int size() {
        return entries.size();
    }
}
