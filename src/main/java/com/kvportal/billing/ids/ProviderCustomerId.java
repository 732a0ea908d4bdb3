package com.kvportal.billing.stripe;

import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** A customer at the payment provider ({@code cus_...}); never confused with our own customer's UUID. */
public record ProviderCustomerId(String value) {

    public ProviderCustomerId {
        if (!ProviderIds.wellFormed(value, "cus_")) {
            throw new IllegalArgumentException("not a provider customer id: " + value);
        }
    }

    public static Optional<ProviderCustomerId> parse(@Nullable String value) {
        return ProviderIds.wellFormed(value, "cus_") ? Optional.of(new ProviderCustomerId(value)) : Optional.empty();
    }

    @Override
    public String toString() {
        return value;
    }
}
