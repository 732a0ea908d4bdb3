package com.kvportal.billing;

import com.kvportal.billing.invoice.StoredInvoices;
import com.kvportal.billing.stripe.StripeGateway;
import com.kvportal.billing.subscription.Plans;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import lombok.AccessLevel;
import lombok.RequiredArgsConstructor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * Billing's public surface for other features: the plans, an organization's effective plan (its current period and
 * the plans that changed lately: {@link OrganizationPlans}), and items billed through the payment provider (the
 * storage overage). What billing does is announced with its
 * domain events ({@link SubscriptionActivated}, {@link RenewalInvoiceDrafted}, ...), published inside the
 * transaction of the change.
 */
@Service
@RequiredArgsConstructor(access = AccessLevel.PACKAGE)
public class Billing {

    private static final Logger log = LoggerFactory.getLogger(Billing.class);

    private final Plans plans;
    private final OrganizationPlans organizationPlans;
    private final StripeGateway gateway;
    private final StoredInvoices invoices;

    /** An invoice of the organization as the API shows it, e.g. for the data of a webhook event about it. */
    public Optional<Invoice> invoice(UUID organizationId, String providerInvoiceId) {
        return invoices.ofOrganization(organizationId).stream()
                .filter(invoice -> invoice.providerInvoiceId().equals(providerInvoiceId))
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
     * Adds an item at the provider ({@code POST /v1/invoiceitems} under the request's idempotency key). When the
     * provider refuses because the named invoice is no longer a draft, the same item is made pending (no invoice,
     * idempotency key + {@code ":pending"}) so that it lands on the customer's next invoice.
     *
     * @throws StripeGateway.PaymentProviderUnavailable when the provider fails; nothing is known to be billed
     */
    public InvoiceItem addInvoiceItem(InvoiceItemRequest request) {
        Optional<String> added = gateway.createInvoiceItem(request);
        if (added.isPresent()) {
            return new InvoiceItem(added.get(), request.providerInvoiceId() == null);
        }
        log.info(
                "Invoice {} is no longer a draft: item {} goes pending onto the next invoice",
                request.providerInvoiceId(),
                request.idempotencyKey());
        InvoiceItemRequest pending = request.pending(IdempotencyKeys.pending(request.idempotencyKey()));
        String id = gateway.createInvoiceItem(pending)
                .orElseThrow(() -> new IllegalStateException("a pending item has no invoice to refuse it"));
        return new InvoiceItem(id, true);
    }

    /**
     * Bills the item on an invoice of its own, now: the item pending (idempotency key as given), then an invoice
     * of the customer's pending items ({@code pending_invoice_items_behavior=include}, {@code auto_advance})
     * and its finalization (keys + {@code ":invoice"}, {@code ":finalize"}). Calling it again with the same key
     * makes nothing new.
     *
     * @return the invoice's id ({@code in_...})
     * @throws StripeGateway.PaymentProviderUnavailable when the provider fails
     */
    public String billFinalInvoice(String providerCustomerId, InvoiceItemRequest item) {
        String key = item.idempotencyKey();
        InvoiceItemRequest pending = new InvoiceItemRequest(
                providerCustomerId,
                null,
                item.quantity(),
                item.unitAmountCents(),
                item.currency(),
                item.description(),
                item.periodStart(),
                item.periodEnd(),
                item.metadata(),
                key);
        gateway.createInvoiceItem(pending)
                .orElseThrow(() -> new IllegalStateException("a pending item has no invoice to refuse it"));
        String invoice = gateway.createInvoiceOfPendingItems(providerCustomerId, IdempotencyKeys.invoiceOfPending(key));
        gateway.finalizeInvoice(invoice, IdempotencyKeys.finalization(key));
        log.info("Final invoice {} of provider customer {} billed ({})", invoice, providerCustomerId, key);
        return invoice;
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
}
