package com.kvportal.sandbox;

import org.jspecify.annotations.Nullable;

/** An invoice of a subscription with its single line. */
record StoredInvoice(
        String id,
        String customer,
        String subscription,
        String lineId,
        String status,
        String billingReason,
        String price,
        long quantity,
        long amountDue,
        long amountPaid,
        int attemptCount,
        long periodStart,
        long periodEnd,
        long linePeriodStart,
        long linePeriodEnd,
        @Nullable String number,
        long created,
        @Nullable Long finalizedAt,
        @Nullable Long paidAt) {

    /** A new draft invoice of the subscription's price and quantity, with a new line, nothing paid yet. */
    static StoredInvoice draft(
            String id,
            StoredSubscription subscription,
            String billingReason,
            StoredPrice price,
            long periodStart,
            long periodEnd,
            long linePeriodStart,
            long linePeriodEnd,
            long created) {
        return new StoredInvoice(
                id,
                subscription.customer(),
                subscription.id(),
                StripeIds.invoiceLine(),
                "draft",
                billingReason,
                price.id(),
                subscription.quantity(),
                price.unitAmount() * subscription.quantity(),
                0,
                0,
                periodStart,
                periodEnd,
                linePeriodStart,
                linePeriodEnd,
                null,
                created,
                null,
                null);
    }

    boolean isOpen() {
        return status.equals("open");
    }

    StoredInvoice finalized(long now, String number) {
        return with("open", amountPaid, attemptCount, number, now, paidAt);
    }

    StoredInvoice paid(long now) {
        return with("paid", amountDue, attemptCount + 1, number, finalizedAt, now);
    }

    StoredInvoice paymentFailed() {
        return with(status, amountPaid, attemptCount + 1, number, finalizedAt, paidAt);
    }

    /** A copy with new values of the fields that change over an invoice's life (those that updates write). */
    private StoredInvoice with(
            String status,
            long amountPaid,
            int attemptCount,
            @Nullable String number,
            @Nullable Long finalizedAt,
            @Nullable Long paidAt) {
        return new StoredInvoice(
                id,
                customer,
                subscription,
                lineId,
                status,
                billingReason,
                price,
                quantity,
                amountDue,
                amountPaid,
                attemptCount,
                periodStart,
                periodEnd,
                linePeriodStart,
                linePeriodEnd,
                number,
                created,
                finalizedAt,
                paidAt);
    }
}
