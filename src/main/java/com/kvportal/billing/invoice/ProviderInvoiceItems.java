package com.kvportal.billing.invoice;

import com.kvportal.billing.ids.ProviderCustomerId;
import com.kvportal.billing.ids.ProviderInvoiceId;
import com.kvportal.billing.ids.ProviderInvoiceItemId;
import com.kvportal.billing.stripe.InvoiceItem;
import com.kvportal.billing.stripe.InvoiceItemRequest;
import com.kvportal.billing.stripe.ProviderIdempotencyKeys;
import com.kvportal.billing.stripe.StripeGateway;
import java.util.Optional;
import lombok.RequiredArgsConstructor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Invoice items billed through the provider, each under its idempotency key, so that a call sent again (a retry
 * after a crash, another instance) makes nothing new: onto a draft invoice, pending onto the next one, or on a
 * final invoice of its own.
 */
@Component
@RequiredArgsConstructor
public class ProviderInvoiceItems {

    private static final Logger log = LoggerFactory.getLogger(ProviderInvoiceItems.class);

    private final StripeGateway gateway;

    /**
     * Adds an item at the provider ({@code POST /v1/invoiceitems} under the request's idempotency key). When the
     * provider refuses because the named invoice is no longer a draft, the same item is made pending (no invoice,
     * idempotency key + {@code ":pending"}) so that it lands on the customer's next invoice.
     *
     * @throws StripeGateway.PaymentProviderUnavailable when the provider fails; nothing is known to be billed
     */
    public InvoiceItem addInvoiceItem(InvoiceItemRequest request) {
        Optional<ProviderInvoiceItemId> added = gateway.createInvoiceItem(request);
        if (added.isPresent()) {
            return new InvoiceItem(added.get(), request.providerInvoiceId() == null);
        }
        log.info(
                "Invoice {} is no longer a draft: item {} goes pending onto the next invoice",
                request.providerInvoiceId(),
                request.idempotencyKey());
        InvoiceItemRequest pending = request.pending(ProviderIdempotencyKeys.pending(request.idempotencyKey()));
        ProviderInvoiceItemId id = gateway.createInvoiceItem(pending)
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
    public ProviderInvoiceId billFinalInvoice(ProviderCustomerId providerCustomerId, InvoiceItemRequest item) {
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
        ProviderInvoiceId invoice =
                gateway.createInvoiceOfPendingItems(providerCustomerId, ProviderIdempotencyKeys.invoiceOfPending(key));
        gateway.finalizeInvoice(invoice, ProviderIdempotencyKeys.finalization(key));
        log.info("Final invoice {} of provider customer {} billed ({})", invoice, providerCustomerId, key);
        return invoice;
    }
}
