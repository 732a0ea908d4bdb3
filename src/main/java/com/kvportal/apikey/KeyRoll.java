package com.kvportal.apikey;

import com.kvportal.common.web.FieldErrors;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The body of a roll, as sent: how long the old key keeps working ({@code grace_seconds}, 0 to 7 days, by default
 * one day; 0 revokes it at once) and the new key's expiry, as at create.
 */
public record KeyRoll(@Nullable Long graceSeconds, @Nullable String expiresAt) {

    static final long DEFAULT_GRACE_SECONDS = Duration.ofDays(1).toSeconds();
    static final long MAX_GRACE_SECONDS = Duration.ofDays(7).toSeconds();

    record Valid(Duration grace, Instant expiresAt) {}

    Valid validate(Instant now) {
        FieldErrors errors = new FieldErrors();
        long grace = graceSeconds == null ? DEFAULT_GRACE_SECONDS : graceSeconds;
        if (grace < 0 || grace > MAX_GRACE_SECONDS) {
            errors.add("grace_seconds", "must be between 0 and " + MAX_GRACE_SECONDS + " (7 days)");
        }
        Instant expiry =
                expiresAt == null ? NewApiKey.defaultExpiry(now) : NewApiKey.validExpiry(errors, expiresAt, now);
        errors.throwIfAny();
        return new Valid(Duration.ofSeconds(grace), expiry);
    }
}
