package com.kvportal.billing.stripe;

import com.stripe.model.Invoice;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An invoice as the provider states it.
 *
 * @param subscription the subscription it bills ({@code parent.subscription_details.subscription}), if any
 */
public record ProviderInvoice(
        String id,
        ProviderCustomerId customer,
        @Nullable ProviderSubscriptionId subscription,
        String status,
        long amountDueCents,
        long amountPaidCents,
        String currency,
        int attemptCount,
        @Nullable String hostedInvoiceUrl,
        @Nullable Instant periodStart,
        @Nullable Instant periodEnd,
        Instant created) {

    /** Stripe's invoice statuses. */
    public static final Set<String> STATUSES = Set.of("draft", "open", "paid", "uncollectible", "void");

    private static final Logger log = LoggerFactory.getLogger(ProviderInvoice.class);

    /**
     * Reads a stripe-java invoice, with the status that its event implies ({@code invoice.paid}: paid). Empty
     * (logged) when it lacks what billing needs; {@code eventCreated} stands in for a missing creation time.
     */
    static Optional<ProviderInvoice> of(Invoice invoice, String status, Instant eventCreated) {
        Optional<ProviderCustomerId> customer = ProviderCustomerId.parse(invoice.getCustomer());
        if (!ProviderIds.wellFormed(invoice.getId(), "in_") || customer.isEmpty() || !STATUSES.contains(status)) {
            log.warn(
                    "Ignoring a provider invoice without a usable id, customer or status: {} {} {}",
                    invoice.getId(),
                    invoice.getCustomer(),
                    status);
            return Optional.empty();
        }
        String subscription = invoice.getParent() == null || invoice.getParent().getSubscriptionDetails() == null
                ? null
                : invoice.getParent().getSubscriptionDetails().getSubscription();
        Instant created = Epoch.instant(invoice.getCreated());
        return Optional.of(new ProviderInvoice(
                invoice.getId(),
                customer.get(),
                ProviderSubscriptionId.parse(subscription).orElse(null),
                status,
                orZero(invoice.getAmountDue()),
                orZero(invoice.getAmountPaid()),
                invoice.getCurrency() == null ? "usd" : invoice.getCurrency(),
                (int) orZero(invoice.getAttemptCount()),
                invoice.getHostedInvoiceUrl(),
                Epoch.instant(invoice.getPeriodStart()),
                Epoch.instant(invoice.getPeriodEnd()),
                created == null ? eventCreated : created));
    }

    private static long orZero(@Nullable Long value) {
        return value == null ? 0 : value;
    }
}
