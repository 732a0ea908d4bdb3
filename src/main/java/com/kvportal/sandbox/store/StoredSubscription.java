package com.kvportal.sandbox.store;

import java.util.Map;
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
        return new StoredSubscription(
                id,
                customer,
                "active",
                price,
                quantity,
                itemId,
                itemCreated,
                currentPeriodEnd,
                currentPeriodStart,
                currentPeriodEnd,
                cancelAtPeriodEnd,
                cancelAt,
                canceledAt,
                endedAt,
                metadata,
                latestInvoice,
                created,
                trialStart,
                trialEnd);
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
        return inCurrentPeriod(status, cancelAtPeriodEnd, cancelAt, canceledAt, endedAt, metadata);
    }

    public StoredSubscription withCancellation(
            boolean cancelAtPeriodEnd, @Nullable Long cancelAt, @Nullable Long canceledAt) {
        return inCurrentPeriod(status, cancelAtPeriodEnd, cancelAt, canceledAt, endedAt, metadata);
    }

    public StoredSubscription ended(long endedAt, long canceledAt) {
        return inCurrentPeriod("canceled", cancelAtPeriodEnd, cancelAt, canceledAt, endedAt, metadata);
    }

    public StoredSubscription renewed(long periodStart, long periodEnd, String invoice, String status) {
        return with(
                status, periodStart, periodEnd, invoice, cancelAtPeriodEnd, cancelAt, canceledAt, endedAt, metadata);
    }

    /**
     * The subscription on another price from {@code now}, as Stripe changes it with {@code billing_cycle_anchor=now}:
     * a new period {@code [now, periodEnd)} anchored at {@code now}, billed by {@code invoice}.
     */
    public StoredSubscription changedTo(String newPrice, long now, long periodEnd, String invoice) {
        return new StoredSubscription(
                id,
                customer,
                status,
                newPrice,
                quantity,
                itemId,
                itemCreated,
                now,
                now,
                periodEnd,
                cancelAtPeriodEnd,
                cancelAt,
                canceledAt,
                endedAt,
                metadata,
                invoice,
                created,
                trialStart,
                trialEnd);
    }

    /** The subscription on another price in the same period and anchor (a schedule's next phase, at a renewal). */
    public StoredSubscription withPrice(String newPrice) {
        return new StoredSubscription(
                id,
                customer,
                status,
                newPrice,
                quantity,
                itemId,
                itemCreated,
                billingCycleAnchor,
                currentPeriodStart,
                currentPeriodEnd,
                cancelAtPeriodEnd,
                cancelAt,
                canceledAt,
                endedAt,
                metadata,
                latestInvoice,
                created,
                trialStart,
                trialEnd);
    }

    public StoredSubscription withMetadata(Map<String, String> metadata) {
        return inCurrentPeriod(status, cancelAtPeriodEnd, cancelAt, canceledAt, endedAt, metadata);
    }

    /** A copy that keeps the current period and its invoice, with new values of the other fields updates write. */
    private StoredSubscription inCurrentPeriod(
            String status,
            boolean cancelAtPeriodEnd,
            @Nullable Long cancelAt,
            @Nullable Long canceledAt,
            @Nullable Long endedAt,
            Map<String, String> metadata) {
        return with(
                status,
                currentPeriodStart,
                currentPeriodEnd,
                latestInvoice,
                cancelAtPeriodEnd,
                cancelAt,
                canceledAt,
                endedAt,
                metadata);
    }

    /** A copy with new values of the fields that change over a subscription's life (those that updates write). */
    private StoredSubscription with(
            String status,
            long currentPeriodStart,
            long currentPeriodEnd,
            @Nullable String latestInvoice,
            boolean cancelAtPeriodEnd,
            @Nullable Long cancelAt,
            @Nullable Long canceledAt,
            @Nullable Long endedAt,
            Map<String, String> metadata) {
        return new StoredSubscription(
                id,
                customer,
                status,
                price,
                quantity,
                itemId,
                itemCreated,
                billingCycleAnchor,
                currentPeriodStart,
                currentPeriodEnd,
                cancelAtPeriodEnd,
                cancelAt,
                canceledAt,
                endedAt,
                metadata,
                latestInvoice,
                created,
                trialStart,
                trialEnd);
    }
}
