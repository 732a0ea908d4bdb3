package com.kvportal.billing;

import com.kvportal.billing.BillingEvent.RenewalInvoiceDrafted;
import com.kvportal.billing.BillingEvent.SubscriptionActivated;
import com.kvportal.billing.ids.ProviderInvoiceId;
import com.kvportal.billing.invoice.StoredInvoices;
import com.kvportal.billing.stripe.StripeGateway;
import com.kvportal.billing.subscription.Plans;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import lombok.AccessLevel;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

/**
 * Billing's public surface for other features: the plans, an organization's effective plan (its current period and
 * the plans that changed lately: {@link OrganizationPlans}), and the invoice items billed through the payment
 * provider (for usage's reconciliation). What billing does is announced with its
 * domain events ({@link SubscriptionActivated}, {@link RenewalInvoiceDrafted}, ...), published inside the
 * transaction of the change.
 */
@Service
@RequiredArgsConstructor(access = AccessLevel.PACKAGE)
public class Billing {

    private final Plans plans;
    private final OrganizationPlans organizationPlans;
    private final StripeGateway gateway;
    private final StoredInvoices invoices;

    /** An invoice of the organization as the API shows it, e.g. for the data of a webhook event about it. */
    public Optional<Invoice> invoice(UUID organizationId, ProviderInvoiceId providerInvoiceId) {
        return invoices.ofOrganization(organizationId).stream()
                .filter(invoice -> invoice.providerInvoiceId().equals(providerInvoiceId.value()))
                .findFirst();
    }

    /** Every plan, cheapest first. */
    public List<Plan> plans() {
        return plans.all();
    }

    /**
     * The plan the organization has now: its subscription's plan while that is active, trialing or past due, and
     * the free plan otherwise.
     */
    public Plan effectivePlan(UUID organizationId) {
        return organizationPlans.effectivePlan(organizationId);
    }

    /** What the organization is entitled to now: its effective plan, the status that grants it, may it write. */
    public Entitlement entitlement(UUID organizationId) {
        return organizationPlans.entitlement(organizationId);
    }

    /**
     * Every invoice item at the provider that billing made with this {@code kind} in its metadata (pending or on
     * any invoice); for reconciliation.
     *
     * @throws StripeGateway.PaymentProviderUnavailable when the provider fails
     */
    public List<ProviderInvoiceItem> providerInvoiceItems(String kind) {
        return gateway.invoiceItemsOfKind(kind);
    }

    /**
     * An invoice's amounts: the subtotal, the discount, the tax and the amount due.
     *
     * @param organizationId null for the provider's side
     */
    public record InvoiceAmounts(
            @Nullable UUID organizationId,
            String providerInvoiceId,
            long subtotalCents,
            long discountCents,
            long taxCents,
            long amountDueCents) {

        boolean sameAs(InvoiceAmounts other) {
            return subtotalCents == other.subtotalCents
                    && discountCents == other.discountCents
                    && taxCents == other.taxCents
                    && amountDueCents == other.amountDueCents;
        }
    }

    /**
     * A settled invoice whose recorded amounts differ from the provider's invoice now.
     *
     * @param provider the provider's amounts; null when the provider knows no such invoice
     */
    public record InvoiceMismatch(InvoiceAmounts recorded, @Nullable InvoiceAmounts provider) {}

    /**
     * Compares the amounts recorded of the settled invoices created in {@code [from, to)} with the provider's
     * invoices (one provider call per invoice); for reconciliation.
     *
     * @throws StripeGateway.PaymentProviderUnavailable when the provider fails
     */
    public List<InvoiceMismatch> invoiceMismatches(Instant from, Instant to) {
        List<InvoiceMismatch> mismatches = new ArrayList<>();
        for (StoredInvoices.Amounts row : invoices.settledAmountsCreatedBetween(from, to)) {
            InvoiceAmounts recorded = new InvoiceAmounts(
                    row.organizationId(),
                    row.providerInvoiceId().value(),
                    row.subtotalCents(),
                    row.discountCents(),
                    row.taxCents(),
                    row.amountDueCents());
            InvoiceAmounts provider = gateway.findInvoice(row.providerInvoiceId())
                    .map(invoice -> new InvoiceAmounts(
                            null,
                            invoice.id().value(),
                            invoice.subtotalCents(),
                            invoice.discountCents(),
                            invoice.taxCents(),
                            invoice.amountDueCents()))
                    .orElse(null);
            if (provider == null || !recorded.sameAs(provider)) {
                mismatches.add(new InvoiceMismatch(recorded, provider));
            }
        }
        return mismatches;
    }
}
