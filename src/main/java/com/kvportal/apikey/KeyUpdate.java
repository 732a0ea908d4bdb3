package com.kvportal.apikey;

import com.kvportal.common.web.FieldErrors;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The body of an update ({@code PATCH}), as sent: a field left out (or null) stays as it is; a field sent follows
 * create's rules.
 */
public record KeyUpdate(@Nullable String name, @Nullable List<String> permissions, @Nullable String expiresAt) {

    /** The checked change: null where the key keeps its value. */
    record Valid(@Nullable String name, @Nullable List<String> permissions, @Nullable Instant expiresAt) {}

    Valid validate(Instant now) {
        FieldErrors errors = new FieldErrors();
        String validName = name == null ? null : errors.name("name", name, NewApiKey.MAX_NAME_LENGTH);
        List<String> validPermissions = permissions == null ? null : NewApiKey.validPermissions(errors, permissions);
        Instant validExpiry = expiresAt == null ? null : NewApiKey.validExpiry(errors, expiresAt, now);
        errors.throwIfAny();
        return new Valid(validName, validPermissions, validExpiry);
    }
}
