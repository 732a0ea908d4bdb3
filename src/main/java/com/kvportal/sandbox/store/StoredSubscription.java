package com.kvportal.sandbox.store;

import java.util.Map;
import lombok.AccessLevel;
import lombok.With;
import org.jspecify.annotations.Nullable;

/**
 * A subscription with its single item (one price, one quantity). What changes over its life is changed in copies
 * ({@code with...}, Lombok's); the rest is set once.
 */
public record StoredSubscription(
        String id,
        String customer,
        @With String status,
        @With String price,
        long quantity,
        String itemId,
        long itemCreated,
        @With(AccessLevel.PRIVATE) long billingCycleAnchor,
        @With(AccessLevel.PRIVATE) long currentPeriodStart,
        @With(AccessLevel.PRIVATE) long currentPeriodEnd,
        @With(AccessLevel.PRIVATE) boolean cancelAtPeriodEnd,
        @With(AccessLevel.PRIVATE) @Nullable Long cancelAt,
        @With(AccessLevel.PRIVATE) @Nullable Long canceledAt,
        @With(AccessLevel.PRIVATE) @Nullable Long endedAt,
        @With Map<String, String> metadata,
        @With(AccessLevel.PRIVATE) @Nullable String latestInvoice,
        long created,
        @Nullable Long trialStart,
        @Nullable Long trialEnd) {

    public boolean isTrialing() {
        return status.equals("trialing");
    }

    /**
     * The trial over at {@code trialEnd}, as Stripe ends it: active, its billing cycle anchored at the trial's end
     * (the renewal that follows then starts the first paid period).
     */
    public StoredSubscription trialOver() {
        return withStatus("active").withBillingCycleAnchor(currentPeriodEnd);
    }

    public boolean hasEnded() {
        return status.equals("canceled") || status.equals("incomplete_expired");
    }

    /**
     * The subscription's clock, as a Stripe test clock reads: the real time, or the start of its current period when
     * {@code advance} moved it past the real time (a test clock stands still until it is advanced again).
     */
    public long now(long realNow) {
        return Math.max(realNow, currentPeriodStart);
    }

    /** True when reaching the end of the current period ends the subscription instead of renewing it. */
    public boolean endsWithCurrentPeriod() {
        return cancelAtPeriodEnd || (cancelAt != null && cancelAt <= currentPeriodEnd);
    }

    public StoredSubscription withCancellation(
            boolean cancelAtPeriodEnd, @Nullable Long cancelAt, @Nullable Long canceledAt) {
        return withCancelAtPeriodEnd(cancelAtPeriodEnd).withCancelAt(cancelAt).withCanceledAt(canceledAt);
    }

    public StoredSubscription ended(long endedAt, long canceledAt) {
        return withStatus("canceled").withCanceledAt(canceledAt).withEndedAt(endedAt);
    }

    public StoredSubscription renewed(long periodStart, long periodEnd, String invoice, String status) {
        return withStatus(status)
                .withCurrentPeriodStart(periodStart)
                .withCurrentPeriodEnd(periodEnd)
                .withLatestInvoice(invoice);
    }

    /**
     * The subscription on another price from {@code now}, as Stripe changes it with {@code billing_cycle_anchor=now}:
     * a new period {@code [now, periodEnd)} anchored at {@code now}, billed by {@code invoice}.
     */
    public StoredSubscription changedTo(String newPrice, long now, long periodEnd, String invoice) {
        return renewed(now, periodEnd, invoice, status).withPrice(newPrice).withBillingCycleAnchor(now);
    }
}
