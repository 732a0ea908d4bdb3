package com.kvportal.sandbox.store;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A customer of the sandbox, with the card that its next charges meet.
 *
 * @param country the country of its billing address (ISO 3166-1 alpha-2), once a checkout collected it
 */
public record StoredCustomer(
        String id,
        @Nullable String email,
        @Nullable String name,
        Map<String, String> metadata,
        CardOutcome card,
        long created,
        @Nullable String country) {

    public StoredCustomer withCard(CardOutcome card) {
        return new StoredCustomer(id, email, name, metadata, card, created, country);
    }

    public StoredCustomer withDetails(@Nullable String email, @Nullable String name, Map<String, String> metadata) {
        return new StoredCustomer(id, email, name, metadata, card, created, country);
    }

    public StoredCustomer withCountry(@Nullable String country) {
        return new StoredCustomer(id, email, name, metadata, card, created, country);
    }
}
