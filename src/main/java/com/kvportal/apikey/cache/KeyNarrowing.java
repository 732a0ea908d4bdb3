package com.kvportal.apikey.cache;

import java.util.List;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The one path of every change that narrows a key: revoke, fewer permissions, an earlier
 * expiry, the end of a roll's grace, a leaked key's revocation. It is called inside the transaction that wrote the
 * narrower state, after the write: it writes the key's invalidation into the same transaction, and once that
 * transaction has committed, it waits until every instance dropped the key from memory or lost its lease (at most
 * the lease duration T) before control returns to the request, which answers only then (docs/design.md, "The key
 * cache").
 */
@Component
@RequiredArgsConstructor
public class KeyNarrowing {

    private final InvalidationLog log;
    private final CacheCoherence coherence;
    private final KeyMetrics metrics;
    private final KeyCache cache;

    /**
     * The key {@code keyId} was changed in the current transaction in a way that refuses nothing it accepted (an
     * added permission, a later expiry, switched on, metadata): every instance drops its old state, without a wait.
     */
    public void widened(UUID keyId) {
        log.append(keyId);
        // this instance answers the new state from the next request on (the others and the holders soon after, as
        // they hear of it): the caller who switched a key on may use it at once
        log.digestOf(keyId).ifPresent(digest -> {
            if (TransactionSynchronizationManager.isSynchronizationActive()) {
                TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                    @Override
                    public void afterCommit() {
                        cache.drop(List.of(digest));
                    }
                });
            }
        });
    }

    /** The key {@code keyId} was narrowed in the current transaction. */
    public void narrowed(UUID keyId) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("a key is narrowed inside the transaction that narrows it");
        }
        CacheCoherence.Waiter waiter = coherence.expect(log.append(keyId));
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCompletion(int status) {
                if (status != STATUS_COMMITTED) {
                    coherence.forget(waiter);
                    return;
                }
                long started = System.nanoTime();
                boolean acknowledged = coherence.awaitApplied(waiter);
                metrics.waited(System.nanoTime() - started, acknowledged);
            }
        });
    }
}
