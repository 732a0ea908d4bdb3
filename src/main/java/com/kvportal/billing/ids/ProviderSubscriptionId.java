package com.kvportal.billing.stripe;

import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** A subscription at the payment provider ({@code sub_...}). */
public record ProviderSubscriptionId(String value) {

    public ProviderSubscriptionId {
        if (!ProviderIds.wellFormed(value, "sub_")) {
            throw new IllegalArgumentException("not a provider subscription id: " + value);
        }
    }

    public static Optional<ProviderSubscriptionId> parse(@Nullable String value) {
        return ProviderIds.wellFormed(value, "sub_")
                ? Optional.of(new ProviderSubscriptionId(value))
                : Optional.empty();
    }

    @Override
    public String toString() {
        return value;
    }
}
