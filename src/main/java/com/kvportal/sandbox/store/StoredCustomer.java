package com.kvportal.sandbox.store;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/** A customer of the sandbox, with the card that its next charges meet. */
public record StoredCustomer(
        String id,
        @Nullable String email,
        @Nullable String name,
        Map<String, String> metadata,
        CardOutcome card,
        long created) {

    public StoredCustomer withCard(CardOutcome card) {
        return new StoredCustomer(id, email, name, metadata, card, created);
    }

    public StoredCustomer withDetails(@Nullable String email, @Nullable String name, Map<String, String> metadata) {
        return new StoredCustomer(id, email, name, metadata, card, created);
    }
}
