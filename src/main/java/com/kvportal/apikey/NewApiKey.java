package com.kvportal.apikey;

import com.kvportal.apikey.fields.AllowedIps;
import com.kvportal.apikey.fields.Checked;
import com.kvportal.apikey.fields.Checked.Rule;
import com.kvportal.apikey.fields.KeyFields;
import com.kvportal.apikey.fields.KeyShape;
import com.kvportal.apikey.limits.Credits;
import com.kvportal.apikey.limits.RateLimit;
import com.kvportal.common.validation.DisplayName;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The body of a create request, as sent. Its constraints check every field, so that all errors are reported at
 * once with the field they belong to.
 */
public record NewApiKey(
        @Schema(description = "1-100 characters once trimmed, no control characters.", example = "ci-deploy")
                @DisplayName(max = MAX_NAME_LENGTH)
                @Nullable
                String name,
        @ArraySchema(
                        arraySchema =
                                @Schema(
                                        description = "Duplicates are dropped; an empty list is refused.",
                                        defaultValue = "[\"write\"]"),
                        minItems = 1,
                        schema = @Schema(allowableValues = {"read", "write", "admin"}))
                @Checked(Rule.PERMISSIONS)
                @Nullable
                List<String> permissions,
        @Schema(
                        format = "date-time",
                        description = "In the future and at most 365 days ahead; default: 90 days from now.",
                        example = "2027-01-31T00:00:00Z")
                @Checked(Rule.EXPIRY)
                @Nullable
                String expiresAt,
        @Schema(
                        description = "At most 50 properties, each a string, number, boolean or null; at most 4 KiB as"
                                + " JSON; default {}.",
                        example = "{\"plan\": \"gold\"}")
                @Checked(Rule.METADATA)
                @Nullable
                Map<String, @Nullable Object> metadata,
        @Schema(
                        pattern = KeyFields.EXTERNAL_ID_PATTERN,
                        description = "1-255 characters of A-Z a-z 0-9 . _ : @ / -; default null.",
                        example = "user_1234")
                @Checked(Rule.EXTERNAL_ID)
                @Nullable
                String externalId,
        @Schema(description = "False creates the key switched off; default true.", defaultValue = "true") @Nullable
                Boolean enabled,
        @ArraySchema(
                        arraySchema =
                                @Schema(
                                        nullable = true,
                                        description = "1-100 IPv4 or IPv6 addresses or CIDR blocks (without bits set"
                                                + " beyond the prefix); default null: any address."),
                        minItems = 1,
                        maxItems = AllowedIps.MAX_ENTRIES,
                        schema = @Schema(example = "203.0.113.0/24"))
                @Checked(Rule.ALLOWED_IPS)
                @Nullable
                List<String> allowedIps,
        @ArraySchema(
                        arraySchema = @Schema(description = "At most 5, names unique; default [] (no limit)."),
                        maxItems = RateLimit.MAX_PER_KEY)
                @Checked(Rule.RATE_LIMITS)
                @Nullable
                List<@jakarta.validation.Valid RateLimit> ratelimits,
        @Schema(nullable = true, description = "Null or left out: unlimited.") @jakarta.validation.Valid @Nullable
                Credits credits) {

    /** A request without rate limits and credits (as before they existed). */
    public NewApiKey(@Nullable String name, @Nullable List<String> permissions, @Nullable String expiresAt) {
        this(name, permissions, expiresAt, null, null, null, null, null, null);
    }

    static final Duration DEFAULT_LIFETIME = Duration.ofDays(90);
    public static final int MAX_NAME_LENGTH = 100;

    /** @param expiresAt null when the request leaves it to the default (which a key policy may shorten) */
    record Valid(String name, List<String> permissions, @Nullable Instant expiresAt, KeyShape shape) {}

    /** The key to create from a validated request: the name trimmed, each permission once, the defaults. */
    Valid resolve() {
        List<String> unique = permissions == null ? List.of("write") : unique(permissions);
        KeyShape shape = new KeyShape(
                metadata == null ? Map.of() : KeyFields.copy(metadata),
                externalId,
                enabled == null || enabled,
                allowedIps == null ? null : AllowedIps.of(allowedIps));
        return new Valid(
                Objects.requireNonNull(name).strip(),
                unique,
                expiresAt == null ? null : KeyFields.expiry(expiresAt),
                shape);
    }

    /** Valid permissions, each once, in the order first given. */
    public static List<String> unique(List<String> permissions) {
        return List.copyOf(new LinkedHashSet<>(permissions));
    }

    static Instant defaultExpiry(Instant now) {
        // whole seconds, as the API shows timestamps: the expiry shown is the one enforced
        return now.plus(DEFAULT_LIFETIME).truncatedTo(ChronoUnit.SECONDS);
    }
}
