package com.kvportal.billing.stripe;

import com.kvportal.billing.InvoiceLine;
import com.kvportal.billing.InvoiceStatus;
import com.kvportal.billing.Plan;
import com.kvportal.billing.ids.ProviderCustomerId;
import com.kvportal.billing.ids.ProviderId;
import com.kvportal.billing.ids.ProviderInvoiceId;
import com.kvportal.billing.ids.ProviderSubscriptionId;
import com.kvportal.common.Parsed;
import com.kvportal.common.WireName;
import com.stripe.model.Invoice;
import com.stripe.model.InvoiceLineItem;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An invoice as the provider states it.
 *
 * @param subscription the subscription it bills ({@code parent.subscription_details.subscription}), if any
 * @param billingReason why the provider made it ({@code subscription_cycle} for a renewal), if stated
 * @param subtotalCents {@code subtotal}; {@code discountCents} the sum of {@code total_discount_amounts};
 *     {@code taxCents} the sum of {@code total_taxes}: as the provider computed them
 * @param lines its lines ({@code lines.data[]}) and, when it has a discount, a discount line of minus that amount;
 *     null when the object does not list them
 */
public record ProviderInvoice(
        ProviderInvoiceId id,
        ProviderCustomerId customer,
        @Nullable ProviderSubscriptionId subscription,
        InvoiceStatus status,
        @Nullable String billingReason,
        long subtotalCents,
        long discountCents,
        long taxCents,
        long amountDueCents,
        long amountPaidCents,
        String currency,
        int attemptCount,
        @Nullable String hostedInvoiceUrl,
        @Nullable Instant periodStart,
        @Nullable Instant periodEnd,
        Instant created,
        @Nullable List<InvoiceLine> lines) {

    /** The billing reason of a subscription's renewal invoice. */
    public static final String SUBSCRIPTION_CYCLE = "subscription_cycle";

    private static final Logger log = LoggerFactory.getLogger(ProviderInvoice.class);

    /** The draft of a subscription's renewal, to which items of the period that ended can still be added. */
    public boolean isRenewalDraft() {
        return SUBSCRIPTION_CYCLE.equals(billingReason) && status == InvoiceStatus.DRAFT;
    }

    /**
     * Reads a stripe-java invoice. Empty (logged) when it lacks what billing needs.
     *
     * @param impliedStatus the status that its event implies ({@code invoice.paid}: paid); null: the object's own
     * @param createdFallback when the object does not say when it was created
     */
    static Optional<ProviderInvoice> of(
            Invoice invoice, @Nullable InvoiceStatus impliedStatus, Instant createdFallback) {
        Optional<ProviderCustomerId> customer = Parsed.orEmpty(invoice.getCustomer(), ProviderCustomerId::new);
        Optional<InvoiceStatus> status = impliedStatus != null
                ? Optional.of(impliedStatus)
                : Optional.ofNullable(invoice.getStatus()).flatMap(wire -> WireName.of(InvoiceStatus.class, wire));
        if (!ProviderId.wellFormed(invoice.getId(), "in_") || customer.isEmpty() || status.isEmpty()) {
            log.warn(
                    "Ignoring a provider invoice without a usable id, customer or status: {} {} {}",
                    invoice.getId(),
                    invoice.getCustomer(),
                    impliedStatus == null ? invoice.getStatus() : impliedStatus);
            return Optional.empty();
        }
        String subscription = invoice.getParent() == null || invoice.getParent().getSubscriptionDetails() == null
                ? null
                : invoice.getParent().getSubscriptionDetails().getSubscription();
        Instant created = Epoch.instant(invoice.getCreated());
        return Optional.of(new ProviderInvoice(
                new ProviderInvoiceId(invoice.getId()),
                customer.get(),
                Parsed.orEmpty(subscription, ProviderSubscriptionId::new).orElse(null),
                status.get(),
                invoice.getBillingReason(),
                invoice.getSubtotal() == null ? orZero(invoice.getAmountDue()) : invoice.getSubtotal(),
                discount(invoice),
                tax(invoice),
                orZero(invoice.getAmountDue()),
                orZero(invoice.getAmountPaid()),
                invoice.getCurrency() == null ? Plan.CURRENCY : invoice.getCurrency(),
                (int) orZero(invoice.getAttemptCount()),
                invoice.getHostedInvoiceUrl(),
                Epoch.instant(invoice.getPeriodStart()),
                Epoch.instant(invoice.getPeriodEnd()),
                created == null ? createdFallback : created,
                lines(invoice)));
    }

    private static long discount(Invoice invoice) {
        return total(invoice.getTotalDiscountAmounts(), Invoice.TotalDiscountAmount::getAmount);
    }

    private static long tax(Invoice invoice) {
        return total(invoice.getTotalTaxes(), Invoice.TotalTax::getAmount);
    }

    /** The sum of the amounts of a list the provider may leave out (0), an amount left out counting 0. */
    private static <T> long total(@Nullable List<T> parts, Function<T, @Nullable Long> amount) {
        return parts == null
                ? 0
                : parts.stream().mapToLong(part -> orZero(amount.apply(part))).sum();
    }

    private static @Nullable List<InvoiceLine> lines(Invoice invoice) {
        if (invoice.getLines() == null || invoice.getLines().getData() == null) {
            return null;
        }
        List<InvoiceLine> lines = new ArrayList<>(
                invoice.getLines().getData().stream().map(ProviderInvoice::line).toList());
        long discount = discount(invoice);
        if (discount != 0) {
            lines.add(new InvoiceLine("Discount", 1, -discount, InvoiceLine.Kind.DISCOUNT));
        }
        return List.copyOf(lines);
    }

    private static InvoiceLine line(InvoiceLineItem line) {
        String kind = line.getMetadata() == null ? null : line.getMetadata().get(InvoiceLine.KIND_KEY);
        return new InvoiceLine(
                line.getDescription(),
                line.getQuantity() == null ? 1 : line.getQuantity(),
                orZero(line.getAmount()),
                isProration(line) ? InvoiceLine.Kind.PRORATION : InvoiceLine.Kind.ofMetadata(kind));
    }

    /** Stripe marks a proration on the line's parent: its subscription item's or its invoice item's details. */
    private static boolean isProration(InvoiceLineItem line) {
        InvoiceLineItem.Parent parent = line.getParent();
        if (parent == null) {
            return false;
        }
        return (parent.getSubscriptionItemDetails() != null
                        && Boolean.TRUE.equals(
                                parent.getSubscriptionItemDetails().getProration()))
                || (parent.getInvoiceItemDetails() != null
                        && Boolean.TRUE.equals(parent.getInvoiceItemDetails().getProration()));
    }

    private static long orZero(@Nullable Long value) {
        return value == null ? 0 : value;
    }
}
