package com.kvportal.sandbox;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/** A subscription with its single item (one price, one quantity). */
record StoredSubscription(
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
        long created) {

    boolean hasEnded() {
        return status.equals("canceled") || status.equals("incomplete_expired");
    }

    /** True when reaching the end of the current period ends the subscription instead of renewing it. */
    boolean endsWithCurrentPeriod() {
        return cancelAtPeriodEnd || (cancelAt != null && cancelAt <= currentPeriodEnd);
    }

    StoredSubscription withStatus(String status) {
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
                created);
    }

    StoredSubscription withCancellation(boolean cancelAtPeriodEnd, @Nullable Long cancelAt, @Nullable Long canceledAt) {
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
                created);
    }

    StoredSubscription ended(long endedAt, long canceledAt) {
        return new StoredSubscription(
                id,
                customer,
                "canceled",
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
                created);
    }

    StoredSubscription renewed(long periodStart, long periodEnd, String invoice, String status) {
        return new StoredSubscription(
                id,
                customer,
                status,
                price,
                quantity,
                itemId,
                itemCreated,
                billingCycleAnchor,
                periodStart,
                periodEnd,
                cancelAtPeriodEnd,
                cancelAt,
                canceledAt,
                endedAt,
                metadata,
                invoice,
                created);
    }

    StoredSubscription withMetadata(Map<String, String> metadata) {
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
                created);
    }
}
