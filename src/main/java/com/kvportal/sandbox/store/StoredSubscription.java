package com.kvportal.sandbox.store;

import java.util.Map;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/** A subscription with its single item (one price, one quantity). */
public record StoredSubscription(
        String id,
        String customer,
        String status,
        String price,
        long quantity,
        String itemId,
        long itemCreated,
        long billingCycleAnchor,
        long currentPeriodStart,
        long currentPeriodEnd,
        boolean cancelAtPeriodEnd,
        @Nullable Long cancelAt,
        @Nullable Long canceledAt,
        @Nullable Long endedAt,
        Map<String, String> metadata,
        @Nullable String latestInvoice,
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
        return with(c -> {
            c.status = "active";
            c.billingCycleAnchor = currentPeriodEnd;
        });
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

    public StoredSubscription withStatus(String status) {
        return with(c -> c.status = status);
    }

    public StoredSubscription withCancellation(
            boolean cancelAtPeriodEnd, @Nullable Long cancelAt, @Nullable Long canceledAt) {
        return with(c -> {
            c.cancelAtPeriodEnd = cancelAtPeriodEnd;
            c.cancelAt = cancelAt;
            c.canceledAt = canceledAt;
        });
    }

    public StoredSubscription ended(long endedAt, long canceledAt) {
        return with(c -> {
            c.status = "canceled";
            c.canceledAt = canceledAt;
            c.endedAt = endedAt;
        });
    }

    public StoredSubscription renewed(long periodStart, long periodEnd, String invoice, String status) {
        return with(c -> {
            c.status = status;
            c.currentPeriodStart = periodStart;
            c.currentPeriodEnd = periodEnd;
            c.latestInvoice = invoice;
        });
    }

    /**
     * The subscription on another price from {@code now}, as Stripe changes it with {@code billing_cycle_anchor=now}:
     * a new period {@code [now, periodEnd)} anchored at {@code now}, billed by {@code invoice}.
     */
    public StoredSubscription changedTo(String newPrice, long now, long periodEnd, String invoice) {
        return renewed(now, periodEnd, invoice, status).with(c -> {
            c.price = newPrice;
            c.billingCycleAnchor = now;
        });
    }

    /** The subscription on another price in the same period and anchor (a schedule's next phase, at a renewal). */
    public StoredSubscription withPrice(String newPrice) {
        return with(c -> c.price = newPrice);
    }

    public StoredSubscription withMetadata(Map<String, String> metadata) {
        return with(c -> c.metadata = metadata);
    }

    /** A copy with the changes {@code change} makes to the fields that change over a subscription's life. */
    private StoredSubscription with(Consumer<Changes> change) {
        Changes c = new Changes(this);
        change.accept(c);
        return new StoredSubscription(
                id,
                customer,
                c.status,
                c.price,
                quantity,
                itemId,
                itemCreated,
                c.billingCycleAnchor,
                c.currentPeriodStart,
                c.currentPeriodEnd,
                c.cancelAtPeriodEnd,
                c.cancelAt,
                c.canceledAt,
                c.endedAt,
                c.metadata,
                c.latestInvoice,
                created,
                trialStart,
                trialEnd);
    }

    /** The fields that change over a subscription's life (those that updates write), as a copy is changed. */
    private static final class Changes {
        private String status;
        private String price;
        private long billingCycleAnchor;
        private long currentPeriodStart;
        private long currentPeriodEnd;
        private boolean cancelAtPeriodEnd;
        private @Nullable Long cancelAt;
        private @Nullable Long canceledAt;
        private @Nullable Long endedAt;
        private Map<String, String> metadata;
        private @Nullable String latestInvoice;

        private Changes(StoredSubscription s) {
            status = s.status;
            price = s.price;
            billingCycleAnchor = s.billingCycleAnchor;
            currentPeriodStart = s.currentPeriodStart;
            currentPeriodEnd = s.currentPeriodEnd;
            cancelAtPeriodEnd = s.cancelAtPeriodEnd;
            cancelAt = s.cancelAt;
            canceledAt = s.canceledAt;
            endedAt = s.endedAt;
            metadata = s.metadata;
            latestInvoice = s.latestInvoice;
        }
    }
}
