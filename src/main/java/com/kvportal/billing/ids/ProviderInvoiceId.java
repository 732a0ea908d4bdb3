package com.kvportal.billing.ids;

/** An invoice at the payment provider ({@code in_...}); never confused with our own invoice's UUID. */
public final class ProviderInvoiceId extends ProviderId {

    public ProviderInvoiceId(String value) {
        super(value, "in_", "invoice");
    }
}
