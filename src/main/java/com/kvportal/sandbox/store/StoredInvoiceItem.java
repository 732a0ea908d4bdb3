package com.kvportal.sandbox.store;

import java.math.BigDecimal;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * An invoice item: a line of a draft invoice, or pending ({@code invoice} null) until the customer's next invoice.
 *
 * @param amount {@code quantity} × {@code unitAmountDecimal} in the currency's smallest unit, rounded half up
 * @param proration true for a plan change's credit of unused time, as Stripe marks a proration line
 */
public record StoredInvoiceItem(
        String id,
        String customer,
        @Nullable String invoice,
        String lineId,
        long quantity,
        BigDecimal unitAmountDecimal,
        long amount,
        String currency,
        @Nullable String description,
        long periodStart,
        long periodEnd,
        Map<String, String> metadata,
        long created,
        boolean proration) {

    public StoredInvoiceItem on(String invoice) {
        return new StoredInvoiceItem(
                id,
                customer,
                invoice,
                lineId,
                quantity,
                unitAmountDecimal,
                amount,
                currency,
                description,
                periodStart,
                periodEnd,
                metadata,
                created,
                proration);
    }
}
