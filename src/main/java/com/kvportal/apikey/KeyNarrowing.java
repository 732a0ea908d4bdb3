package com.kvportal.apikey;

import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The one path of every change that narrows a key (revoke, new permissions, an earlier expiry, a roll's grace
 * end, a leaked key's revocation; CONTRACT section 4): the change and its invalidation commit together, and the
 * request answers only once every instance dropped the key from memory or lost its lease.
 */
@Component
class KeyNarrowing {

    private final TransactionTemplate transactions;
    private final InvalidationLog log;
    private final CacheCoherence coherence;

    KeyNarrowing(PlatformTransactionManager transactionManager, InvalidationLog log, CacheCoherence coherence) {
        this.transactions = new TransactionTemplate(transactionManager);
        this.log = log;
        this.coherence = coherence;
    }

    /** What a narrowing change answers, and the keys whose cached state it made wrong. */
    record Narrowed<T>(T result, List<KeyDigest> digests) {
        static <T> Narrowed<T> of(T result, KeyDigest... digests) {
            return new Narrowed<>(result, List.of(digests));
        }
    }

    /**
     * Runs {@code change} in a transaction (the caller's, when there is one) together with the invalidation of the
     * keys it names, and returns once the commit is known to every instance (at most the lease duration T later).
     * Inside a caller's transaction, the wait happens after that transaction commits, before control returns to
     * whoever committed it.
     */
    <T> T narrow(Supplier<Narrowed<T>> change) {
        boolean outer = TransactionSynchronizationManager.isActualTransactionActive();
        CacheCoherence.Waiter[] waiter = new CacheCoherence.Waiter[1];
        T result = transactions.execute(status -> {
            Narrowed<T> narrowed = change.get();
            if (!narrowed.digests().isEmpty()) {
                CacheCoherence.Waiter expected = coherence.expect(log.append(narrowed.digests()));
                waiter[0] = expected;
                TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                    @Override
                    public void afterCompletion(int completion) {
                        if (completion != STATUS_COMMITTED) {
                            coherence.forget(expected);
                        } else if (outer) {
                            coherence.awaitApplied(expected);
                        }
                    }
                });
            }
            return narrowed.result();
        });
        CacheCoherence.@Nullable Waiter own = waiter[0];
        if (!outer && own != null) {
            coherence.awaitApplied(own);
        }
        return result;
    }
}
