package com.kvportal.billing.ids;

/** A customer at the payment provider ({@code cus_...}); never confused with our own customer's UUID. */
public final class ProviderCustomerId extends ProviderId {

    public ProviderCustomerId(String value) {
        super(value, "cus_", "customer");
    }
}
