package com.kvportal.billing.stripe;

import com.kvportal.billing.ids.ProviderCustomerId;
import com.kvportal.billing.ids.ProviderInvoiceId;
import java.time.Instant;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * An invoice item to bill through the provider ({@code POST /v1/invoiceitems}).
 *
 * @param providerInvoiceId the draft invoice it joins ({@code in_...}); null: pending, it joins the customer's
 *     next invoice
 * @param unitAmountCents the price of one unit in the smallest unit of {@code currency}
 * @param metadata e.g. {@code organization_id}, {@code period_start} and {@code kind} ({@link com.kvportal.billing.InvoiceLine#KIND_KEY})
 * @param idempotencyKey the same key makes the same item, however often it is sent
 */
public record InvoiceItemRequest(
        ProviderCustomerId providerCustomerId,
        @Nullable ProviderInvoiceId providerInvoiceId,
        long quantity,
        long unitAmountCents,
        String currency,
        String description,
        Instant periodStart,
        Instant periodEnd,
        Map<String, String> metadata,
        String idempotencyKey) {

    public InvoiceItemRequest {
        metadata = Map.copyOf(metadata);
        if (quantity <= 0 || unitAmountCents < 0 || idempotencyKey.isBlank()) {
            throw new IllegalArgumentException("an invoice item needs a quantity, a price and an idempotency key");
        }
    }

    /** The same item without an invoice: pending at the provider. */
    public InvoiceItemRequest pending(String key) {
        return new InvoiceItemRequest(
                providerCustomerId,
                null,
                quantity,
                unitAmountCents,
                currency,
                description,
                periodStart,
                periodEnd,
                metadata,
                key);
    }
}
