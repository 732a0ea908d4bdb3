package com.kvportal.apikey;

import com.kvportal.apikey.fields.Checked;
import com.kvportal.apikey.fields.Checked.Rule;
import com.kvportal.apikey.fields.KeyFields;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Duration;
import java.time.Instant;
import org.hibernate.validator.constraints.Range;
import org.jspecify.annotations.Nullable;

/**
 * The body of a roll, as sent: how long the old key keeps working ({@code grace_seconds}, 0 to 7 days, by default
 * one day; 0 revokes it at once) and the new key's expiry, as at create.
 */
public record KeyRoll(
        @Schema(
                        description = "How long the old key keeps working; 0 revokes it at once.",
                        minimum = "0",
                        maximum = "604800",
                        defaultValue = "86400")
                @Range(min = 0, max = MAX_GRACE_SECONDS, message = GRACE_RULE)
                @Nullable
                Long graceSeconds,
        @Schema(
                        format = "date-time",
                        description = "The new key's expiry: in the future, at most 365 days ahead; default: 90 days.")
                @Checked(Rule.EXPIRY)
                @Nullable
                String expiresAt) {

    static final long DEFAULT_GRACE_SECONDS = 24 * 3600;
    static final long MAX_GRACE_SECONDS = 7 * 24 * 3600;
    private static final String GRACE_RULE = "must be between 0 and " + MAX_GRACE_SECONDS + " (7 days)";

    /** @param expiresAt null when the request leaves it to the default (which a key policy may shorten) */
    record Valid(Duration grace, @Nullable Instant expiresAt) {}

    /** The roll of a validated request, with the default grace when it leaves it out. */
    Valid resolve() {
        long grace = graceSeconds == null ? DEFAULT_GRACE_SECONDS : graceSeconds;
        return new Valid(Duration.ofSeconds(grace), expiresAt == null ? null : KeyFields.expiry(expiresAt));
    }
}
