package com.kvportal.apikey.fields;

import com.kvportal.apikey.NewApiKey;
import com.kvportal.apikey.fields.Checked.Rule;
import com.kvportal.apikey.limits.Credits;
import com.kvportal.apikey.limits.CreditsPatch;
import com.kvportal.apikey.limits.RateLimit;
import com.kvportal.common.validation.DisplayName;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * The body of an update ({@code PATCH}), as sent: a field left out (or null) stays as it is; a field sent follows
 * create's rules (see {@link Checked}).
 */
public record KeyUpdate(
        @Schema(
                        description = "1-100 characters once trimmed, no control characters; left out: unchanged.",
                        minLength = 1,
                        maxLength = 100)
                @DisplayName(max = NewApiKey.MAX_NAME_LENGTH, required = false)
                @Nullable
                String name,
        @ArraySchema(
                        arraySchema = @Schema(description = "Duplicates are dropped; left out: unchanged."),
                        minItems = 1,
                        schema = @Schema(allowableValues = {"read", "write", "admin"}))
                @Checked(Rule.PERMISSIONS)
                @Nullable
                List<String> permissions,
        @Schema(format = "date-time", description = "In the future and at most 365 days ahead; left out: unchanged.")
                @Checked(Rule.EXPIRY)
                @Nullable
                String expiresAt,
        @Schema(description = "Replaces the metadata (as at create); left out: unchanged; {} removes it all.")
                @Checked(Rule.METADATA)
                @Nullable
                Map<String, @Nullable Object> metadata,
        @Schema(
                        type = "string",
                        nullable = true,
                        pattern = KeyFields.EXTERNAL_ID_PATTERN,
                        description = "As at create; null removes it; left out: unchanged.")
                @Checked(Rule.EXTERNAL_ID)
                @JsonDeserialize(using = Clearable.Text.class)
                @Nullable
                Optional<String> externalId,
        @Schema(description = "false switches the key off, true on again; left out: unchanged.") @Nullable
                Boolean enabled,
        @ArraySchema(
                        arraySchema =
                                @Schema(
                                        nullable = true,
                                        description = "Replaces the allowed addresses (as at create); null: any"
                                                + " address; left out: unchanged."),
                        minItems = 1,
                        maxItems = AllowedIps.MAX_ENTRIES,
                        schema = @Schema(example = "203.0.113.0/24"))
                @Checked(Rule.ALLOWED_IPS)
                @JsonDeserialize(using = Clearable.TextList.class)
                @Nullable
                Optional<List<String>> allowedIps,
        @ArraySchema(
                        arraySchema =
                                @Schema(
                                        description =
                                                "Replaces the key's rate limits ([] removes them); left out: unchanged."),
                        maxItems = RateLimit.MAX_PER_KEY)
                @Checked(Rule.RATE_LIMITS)
                @Nullable
                List<@jakarta.validation.Valid RateLimit> ratelimits,
        @Schema(
                        nullable = true,
                        description = "Replaces the key's credits (a top-up); null: unlimited; left out: unchanged.")
                @JsonDeserialize(using = CreditsPatch.class)
                @jakarta.validation.Valid
                @Nullable
                Credits credits) {

    /** An update of name, permissions and expiry only. */
    public KeyUpdate(@Nullable String name, @Nullable List<String> permissions, @Nullable String expiresAt) {
        this(name, permissions, expiresAt, null, null, null, null, null, null);
    }

    /** The checked change: null where the key keeps its value. */
    public record Valid(
            @Nullable String name,
            @Nullable List<String> permissions,
            @Nullable Instant expiresAt,
            @Nullable Map<String, @Nullable Object> metadata,
            @Nullable Optional<String> externalId,
            @Nullable Boolean enabled,
            @Nullable Optional<AllowedIps> allowedIps) {

        /** The key's shape after this change. */
        public KeyShape applyTo(KeyShape old) {
            return new KeyShape(
                    metadata == null ? old.metadata() : metadata,
                    externalId == null ? old.externalId() : externalId.orElse(null),
                    enabled == null ? old.enabled() : enabled,
                    allowedIps == null ? old.allowedIps() : allowedIps.orElse(null));
        }
    }

    /** The change of a validated request: the name trimmed, each permission once. */
    public Valid resolve() {
        return new Valid(
                name == null ? null : name.strip(),
                permissions == null ? null : NewApiKey.unique(permissions),
                expiresAt == null ? null : KeyFields.expiry(expiresAt),
                metadata == null ? null : KeyFields.copy(metadata),
                externalId,
                enabled,
                allowedIps == null ? null : allowedIps.map(AllowedIps::of));
    }
}
