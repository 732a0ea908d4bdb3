package com.kvportal.billing;

import com.kvportal.billing.ids.ProviderInvoiceId;
import com.kvportal.billing.ids.ProviderInvoiceItemId;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * An invoice item as the provider lists it.
 *
 * @param providerInvoiceItemId its id ({@code ii_...})
 * @param providerInvoiceId the invoice it is a line of; null while it is pending
 * @param amountCents its amount in the smallest unit of its currency
 * @param metadata what billing put on it ({@code organization_id}, {@code period_start}, {@code kind})
 */
public record ProviderInvoiceItem(
        ProviderInvoiceItemId providerInvoiceItemId,
        @Nullable ProviderInvoiceId providerInvoiceId,
        long quantity,
        long amountCents,
        Map<String, String> metadata) {

    public ProviderInvoiceItem {
        metadata = Map.copyOf(metadata);
    }
}
