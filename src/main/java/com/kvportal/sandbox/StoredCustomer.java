package com.kvportal.sandbox;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/** A customer of the sandbox, with the card that its next charges meet. */
record StoredCustomer(
        String id,
        @Nullable String email,
        @Nullable String name,
        Map<String, String> metadata,
        CardOutcome card,
        long created) {

    StoredCustomer withCard(CardOutcome card) {
        return new StoredCustomer(id, email, name, metadata, card, created);
    }

    StoredCustomer withDetails(@Nullable String email, @Nullable String name, Map<String, String> metadata) {
        return new StoredCustomer(id, email, name, metadata, card, created);
    }
}
