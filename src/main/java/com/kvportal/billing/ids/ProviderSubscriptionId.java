package com.kvportal.billing.ids;

/** A subscription at the payment provider ({@code sub_...}); never confused with our own subscription's UUID. */
public final class ProviderSubscriptionId extends ProviderId {

    public ProviderSubscriptionId(String value) {
        super(value, "sub_", "subscription");
    }
}
