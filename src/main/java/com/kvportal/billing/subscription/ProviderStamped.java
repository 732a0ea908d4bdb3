package com.kvportal.billing.subscription;

import java.time.Instant;

/**
 * A stored state that keeps the provider time of the news it shows (an event's {@code created}, or when the
 * provider's object was fetched). The one rule for subscriptions and invoices alike: older news never overwrites
 * newer; on a tie the later arrival wins, except that a subscription event of a tie that says otherwise is settled by
 * the provider ({@link LockedSubscription#statedByEvent}).
 */
public interface ProviderStamped {

    Instant providerStateAt();

    /** Whether news stamped {@code newsAt} is at least as new as this state. */
    default boolean isNotNewerThan(Instant newsAt) {
        return !newsAt.isBefore(providerStateAt());
    }
}
