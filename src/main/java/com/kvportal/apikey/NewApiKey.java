package com.kvportal.apikey;

import com.kvportal.common.web.FieldErrors;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The body of a create request, as sent: every field is checked here, so that all errors are reported at
 * once with the field they belong to.
 */
public record NewApiKey(@Nullable String name, @Nullable List<String> permissions, @Nullable String expiresAt) {

    static final Set<String> PERMISSIONS = Set.of("read", "write", "admin");
    static final Duration DEFAULT_LIFETIME = Duration.ofDays(90);
    static final Duration MAX_LIFETIME = Duration.ofDays(365);
    static final int MAX_NAME_LENGTH = 100;

    record Valid(String name, List<String> permissions, Instant expiresAt) {}

    Valid validate(Instant now) {
        FieldErrors errors = new FieldErrors();
        String validName = errors.name("name", name, MAX_NAME_LENGTH);
        List<String> validPermissions = permissions == null ? List.of("write") : validPermissions(errors, permissions);
        Instant validExpiry = expiresAt == null ? defaultExpiry(now) : validExpiry(errors, expiresAt, now);
        errors.throwIfAny();
        return new Valid(validName, validPermissions, validExpiry);
    }

    /** Create's rules for permissions, shared with update: at least one known permission, duplicates dropped. */
    static List<String> validPermissions(FieldErrors errors, List<String> permissions) {
        if (permissions.isEmpty()) {
            errors.add("permissions", "must contain at least one of read, write, admin");
            return List.of();
        }
        Set<String> unique = new LinkedHashSet<>();
        for (String permission : permissions) {
            if (permission == null || !PERMISSIONS.contains(permission)) {
                errors.add("permissions", "unknown permission '" + permission + "'; allowed: read, write, admin");
                return List.of();
            }
            unique.add(permission);
        }
        return List.copyOf(unique);
    }

    static Instant defaultExpiry(Instant now) {
        // whole seconds, as the API shows timestamps: the expiry shown is the one enforced
        return now.plus(DEFAULT_LIFETIME).truncatedTo(ChronoUnit.SECONDS);
    }

    /** Create's rules for an expiry, shared with update and roll: in the future, at most 365 days ahead. */
    static @Nullable Instant validExpiry(FieldErrors errors, String expiresAt, Instant now) {
        Instant at;
        try {
            at = OffsetDateTime.parse(expiresAt).toInstant().truncatedTo(ChronoUnit.SECONDS);
        } catch (DateTimeParseException e) {
            errors.add("expires_at", "must be an ISO 8601 timestamp with an offset, e.g. 2027-01-31T00:00:00Z");
            return null;
        }
        if (!at.isAfter(now)) {
            errors.add("expires_at", "must be in the future");
        } else if (at.isAfter(now.plus(MAX_LIFETIME))) {
            errors.add("expires_at", "must be at most 365 days ahead");
        }
        return at;
    }
}
