package com.kvportal.sandbox.store;

import com.kvportal.sandbox.stripe.StripeId;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * An invoice: a subscription's (with its subscription line) or a standalone one made from pending items. Its
 * invoice items' lines are stored apart ({@link StoredInvoiceItem}). {@code subtotal} is the total of all lines;
 * {@code amountDue} is what the customer owes: the subtotal less the discount plus the tax, as Stripe computes them on
 * the whole invoice (each rounded half up to the cent). A discount or tax is decided when the invoice is made and
 * follows its lines while it is a draft.
 *
 * @param subscription the subscription it bills; null for a standalone invoice, which has no subscription line
 * @param finalizesAt for a draft that advances by itself, the time it is finalized at the latest (the grace)
 * @param createdEvent the id of the draft's {@code invoice.created}; once that was answered 2xx, it is finalized
 * @param discount the discount ({@code di_}) it carries, with its coupon's {@code percentOff} or {@code amountOff}
 * @param taxPercent the tax rate of {@code taxCountry} when automatic tax is on; null: no automatic tax
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
        @Nullable String createdEvent,
        long subtotal,
        @Nullable String discount,
        @Nullable BigDecimal percentOff,
        @Nullable Long amountOff,
        @Nullable String taxCountry,
        @Nullable BigDecimal taxPercent) {

    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

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
                null,
                price.unitAmount() * subscription.quantity(),
                null,
                null,
                null,
                null,
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
                null,
                0,
                null,
                null,
                null,
                null,
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
        return withTerms(c -> c.subtotal = subtotal + amount);
    }

    /**
     * The draft with a discount of a coupon's terms ({@code percentOff} or {@code amountOff}) on its whole subtotal.
     */
    public StoredInvoice withDiscount(String discount, @Nullable BigDecimal percentOff, @Nullable Long amountOff) {
        return withTerms(c -> {
            c.discount = discount;
            c.percentOff = percentOff;
            c.amountOff = amountOff;
        });
    }

    /** The draft taxed at {@code percent} of its subtotal after discounts, the rate of {@code country}. */
    public StoredInvoice withTax(String country, BigDecimal percent) {
        return withTerms(c -> {
            c.taxCountry = country;
            c.taxPercent = percent;
        });
    }

    /**
     * The discount's amount: a percentage of the subtotal, or the coupon's amount up to the subtotal; nothing off an
     * invoice that charges nothing (a credit is not discounted).
     */
    public long discountAmount() {
        if (discount == null || subtotal <= 0) {
            return 0;
        }
        if (percentOff != null) {
            return percent(subtotal, percentOff);
        }
        return amountOff == null ? 0 : Math.min(amountOff, subtotal);
    }

    /** The tax: the rate on the subtotal after the discount; 0 without automatic tax. */
    public long tax() {
        return taxPercent == null ? 0 : percent(subtotal - discountAmount(), taxPercent);
    }

    /** {@code percent} % of {@code amount}, rounded half up (away from zero) to the cent. */
    private static long percent(long amount, BigDecimal percent) {
        return BigDecimal.valueOf(amount)
                .multiply(percent)
                .divide(HUNDRED, 0, RoundingMode.HALF_UP)
                .longValueExact();
    }

    /** A copy with new terms (subtotal, discount, tax) and the amount due they make. */
    private StoredInvoice withTerms(Consumer<Changes> terms) {
        StoredInvoice changed = with(terms);
        long due = changed.subtotal - changed.discountAmount() + changed.tax();
        return changed.with(c -> c.amountDue = due);
    }

    /**
     * The first invoice of a subscription that starts with a trial: its line is the trial, $0, as at Stripe, so its
     * subtotal is 0 too, and a discount or tax priced onto it later takes nothing off and adds nothing.
     */
    public StoredInvoice ofTrial() {
        return withTerms(c -> c.subtotal = 0);
    }

    /**
     * True for the $0 invoice Stripe makes at the start of a trial: its subtotal is 0 (a first invoice that a coupon
     * takes to 0 is due 0 too, but bills its price).
     */
    public boolean isTrialStart() {
        return billingReason.equals("subscription_create") && subtotal == 0;
    }

    public StoredInvoice withCreatedEvent(String eventId) {
        return with(c -> c.createdEvent = eventId);
    }

    /** Open, numbered; {@code autoAdvance} says whether Stripe goes on to charge it by itself. */
    public StoredInvoice finalized(long now, String number, boolean autoAdvance) {
        return with(c -> {
            c.status = "open";
            c.number = number;
            c.finalizedAt = now;
            c.autoAdvance = autoAdvance;
        });
    }

    public StoredInvoice paid(long now) {
        return with(c -> {
            c.status = "paid";
            c.amountPaid = amountDue;
            c.attemptCount = attemptCount + 1;
            c.paidAt = now;
            c.autoAdvance = false;
        });
    }

    /** A zero invoice is paid at finalization, without an attempt, as at Stripe. */
    public StoredInvoice paidWithoutCharge(long now) {
        return with(c -> {
            c.status = "paid";
            c.amountPaid = 0;
            c.paidAt = now;
            c.autoAdvance = false;
        });
    }

    public StoredInvoice paymentFailed() {
        return with(c -> c.attemptCount = attemptCount + 1);
    }

    /**
     * A copy with the changes {@code change} makes to the fields that change over an invoice's life; only a draft
     * keeps the time it is finalized at the latest.
     */
    private StoredInvoice with(Consumer<Changes> change) {
        Changes c = new Changes(this);
        change.accept(c);
        return new StoredInvoice(
                id,
                customer,
                subscription,
                lineId,
                c.status,
                billingReason,
                price,
                quantity,
                c.amountDue,
                c.amountPaid,
                c.attemptCount,
                periodStart,
                periodEnd,
                linePeriodStart,
                linePeriodEnd,
                c.number,
                created,
                c.finalizedAt,
                c.paidAt,
                c.autoAdvance,
                c.status.equals("draft") ? finalizesAt : null,
                c.createdEvent,
                c.subtotal,
                c.discount,
                c.percentOff,
                c.amountOff,
                c.taxCountry,
                c.taxPercent);
    }

    /** The fields that change over an invoice's life (those that updates write), as a copy is changed. */
    private static final class Changes {
        private String status;
        private long amountDue;
        private long amountPaid;
        private int attemptCount;
        private @Nullable String number;
        private @Nullable Long finalizedAt;
        private @Nullable Long paidAt;
        private boolean autoAdvance;
        private @Nullable String createdEvent;
        private long subtotal;
        private @Nullable String discount;
        private @Nullable BigDecimal percentOff;
        private @Nullable Long amountOff;
        private @Nullable String taxCountry;
        private @Nullable BigDecimal taxPercent;

        private Changes(StoredInvoice i) {
            status = i.status;
            amountDue = i.amountDue;
            amountPaid = i.amountPaid;
            attemptCount = i.attemptCount;
            number = i.number;
            finalizedAt = i.finalizedAt;
            paidAt = i.paidAt;
            autoAdvance = i.autoAdvance;
            createdEvent = i.createdEvent;
            subtotal = i.subtotal;
            discount = i.discount;
            percentOff = i.percentOff;
            amountOff = i.amountOff;
            taxCountry = i.taxCountry;
            taxPercent = i.taxPercent;
        }
    }
}
