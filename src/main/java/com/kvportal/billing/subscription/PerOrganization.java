package com.kvportal.billing.subscription;

import java.util.UUID;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Work on an organization's billing that runs one at a time per organization in this instance, while the provider is
 * called: no database connection is held then (the sandbox answers from this very service and pool), so a row lock is
 * no option. Striped: bounded memory, and organizations rarely share a stripe at the same moment (then one waits for
 * the other, which is safe). Across instances, whoever uses it has its own guard (an idempotency key at the provider,
 * a unique constraint, the provider's own state).
 */
public final class PerOrganization {

    private final Lock[] stripes;

    public PerOrganization(int stripes) {
        this.stripes = new Lock[stripes];
        for (int i = 0; i < stripes; i++) {
            this.stripes[i] = new ReentrantLock();
        }
    }

    /** Runs {@code work} once any other work of the organization here has ended, and answers what it answers. */
    public <T> T oneAtATime(UUID organizationId, Supplier<T> work) {
        Lock lock = stripes[Math.floorMod(organizationId.hashCode(), stripes.length)];
        lock.lock();
        try {
            return work.get();
        } finally {
            lock.unlock();
        }
    }
}
