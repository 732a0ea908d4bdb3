package com.kvportal.billing.ids;

/** An invoice item at the payment provider ({@code ii_...}). */
public final class ProviderInvoiceItemId extends ProviderId {

    public ProviderInvoiceItemId(String value) {
        super(value, "ii_", "invoice item");
    }
}
