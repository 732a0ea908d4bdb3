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

    boolean isOpen() {
        return status.equals("open");
    }

    StoredInvoice finalized(long now) {
        return new StoredInvoice(
                id,
                customer,
                subscription,
                lineId,
                "open",
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
                now,
                paidAt);
    }

    StoredInvoice paid(long now) {
        return new StoredInvoice(
                id,
                customer,
                subscription,
                lineId,
                "paid",
                billingReason,
                price,
                quantity,
                amountDue,
                amountDue,
                attemptCount + 1,
                periodStart,
                periodEnd,
                linePeriodStart,
                linePeriodEnd,
                number,
                created,
                finalizedAt,
                now);
    }

    StoredInvoice paymentFailed() {
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
                attemptCount + 1,
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
