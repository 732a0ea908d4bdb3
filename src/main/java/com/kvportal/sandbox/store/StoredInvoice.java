package com.kvportal.sandbox.store;

import com.kvportal.sandbox.stripe.StripeId;
import org.jspecify.annotations.Nullable;

/**
 * An invoice: a subscription's (with its subscription line) or a standalone one made from pending items. Its
 * invoice items' lines are stored apart ({@link StoredInvoiceItem}); {@code amountDue} is the total of all lines.
 *
 * @param subscription the subscription it bills; null for a standalone invoice, which has no subscription line
 * @param finalizesAt for a draft that advances by itself, the time it is finalized at the latest (the grace)
 * @param createdEvent the id of the draft's {@code invoice.created}; once that was answered 2xx, it is finalized
 */
public record StoredInvoice(
        String id,
        String customer,
        @Nullable String subscription,
        @Nullable String lineId,
        String status,
        String billingReason,
        @Nullable String price,
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
        @Nullable Long paidAt,
        boolean autoAdvance,
        @Nullable Long finalizesAt,
        @Nullable String createdEvent) {

    /** A new draft invoice of the subscription's price and quantity, with a new line, nothing paid yet. */
    public static StoredInvoice draft(
            String id,
            StoredSubscription subscription,
            String billingReason,
            StoredPrice price,
            long periodStart,
            long periodEnd,
            long linePeriodStart,
            long linePeriodEnd,
            long created,
            @Nullable Long finalizesAt) {
        return new StoredInvoice(
                id,
                subscription.customer(),
                subscription.id(),
                StripeId.INVOICE_LINE.next(),
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
                null,
                true,
                finalizesAt,
                null);
    }

    /** A new standalone draft ({@code billing_reason=manual}) without lines yet. */
    public static StoredInvoice standalone(
            String id, String customer, boolean autoAdvance, @Nullable Long finalizesAt, long created) {
        return new StoredInvoice(
                id,
                customer,
                null,
                null,
                "draft",
                "manual",
                null,
                0,
                0,
                0,
                0,
                created,
                created,
                created,
                created,
                null,
                created,
                null,
                null,
                autoAdvance,
                finalizesAt,
                null);
    }

    public boolean isDraft() {
        return status.equals("draft");
    }

    boolean isOpen() {
        return status.equals("open");
    }

    /** True when the invoice has the line of its subscription's price. */
    public boolean hasSubscriptionLine() {
        return subscription != null && price != null && lineId != null;
    }

    /** The draft with one more line of {@code amount}. */
    public StoredInvoice withLineOf(long amount) {
        long due = amountDue + amount;
        return with(status, due, amountPaid, attemptCount, number, finalizedAt, paidAt, autoAdvance, createdEvent);
    }

    /** The first invoice of a subscription that starts with a trial: its line is the trial, $0, as at Stripe. */
    public StoredInvoice ofTrial() {
        return with(status, 0, amountPaid, attemptCount, number, finalizedAt, paidAt, autoAdvance, createdEvent);
    }

    /** True for the $0 invoice Stripe makes at the start of a trial. */
    public boolean isTrialStart() {
        return billingReason.equals("subscription_create") && amountDue == 0;
    }

    public StoredInvoice withCreatedEvent(String eventId) {
        return with(status, amountDue, amountPaid, attemptCount, number, finalizedAt, paidAt, autoAdvance, eventId);
    }

    /** Open, numbered; {@code autoAdvance} says whether Stripe goes on to charge it by itself. */
    public StoredInvoice finalized(long now, String number, boolean autoAdvance) {
        return with("open", amountDue, amountPaid, attemptCount, number, now, paidAt, autoAdvance, createdEvent);
    }

    public StoredInvoice paid(long now) {
        return with("paid", amountDue, amountDue, attemptCount + 1, number, finalizedAt, now, false, createdEvent);
    }

    /** A zero invoice is paid at finalization, without an attempt, as at Stripe. */
    public StoredInvoice paidWithoutCharge(long now) {
        return with("paid", amountDue, 0, attemptCount, number, finalizedAt, now, false, createdEvent);
    }

    public StoredInvoice paymentFailed() {
        int attempts = attemptCount + 1;
        return with(status, amountDue, amountPaid, attempts, number, finalizedAt, paidAt, autoAdvance, createdEvent);
    }

    /**
     * A copy with new values of the fields that change over an invoice's life (those that updates write); only a
     * draft keeps the time it is finalized at the latest.
     */
    private StoredInvoice with(
            String status,
            long amountDue,
            long amountPaid,
            int attemptCount,
            @Nullable String number,
            @Nullable Long finalizedAt,
            @Nullable Long paidAt,
            boolean autoAdvance,
            @Nullable String createdEvent) {
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
                paidAt,
                autoAdvance,
                status.equals("draft") ? finalizesAt : null,
                createdEvent);
    }
}
