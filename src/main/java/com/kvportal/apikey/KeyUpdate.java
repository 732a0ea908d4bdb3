package com.kvportal.apikey;

import com.kvportal.common.web.FieldErrors;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The body of an update ({@code PATCH}), as sent: a field left out (or null) stays as it is; a field sent follows
 * create's rules.
 */
public record KeyUpdate(
        @Schema(
                        description = "1-100 characters once trimmed, no control characters; left out: unchanged.",
                        minLength = 1,
                        maxLength = 100)
                @Nullable
                String name,
        @ArraySchema(
                        arraySchema = @Schema(description = "Duplicates are dropped; left out: unchanged."),
                        minItems = 1,
                        schema = @Schema(allowableValues = {"read", "write", "admin"}))
                @Nullable
                List<String> permissions,
        @Schema(format = "date-time", description = "In the future and at most 365 days ahead; left out: unchanged.")
                @Nullable
                String expiresAt) {

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
