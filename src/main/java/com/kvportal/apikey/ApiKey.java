package com.kvportal.apikey;

import com.kvportal.apikey.fields.AllowedIps;
import com.kvportal.apikey.fields.KeyFields;
import com.kvportal.apikey.fields.KeyShape;
import com.kvportal.apikey.limits.CreditsView;
import com.kvportal.apikey.limits.RateLimit;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** A key as the list shows it: never the raw key, never its digest. */
public record ApiKey(
        UUID id,
        UUID projectId,
        @Schema(minLength = 1, maxLength = 100, example = "ci-deploy") String name,
        @ArraySchema(schema = @Schema(allowableValues = {"read", "write", "admin"})) List<String> permissions,
        Instant expiresAt,
        @Schema(nullable = true, description = "Null while the key has never been used.") @Nullable Instant lastUsedAt,
        Instant createdAt,
        @Schema(
                        description = "The customer who created the key (a rolled key: who rolled it). A key holds no"
                                + " more than its creator may do: with admin, it acts as an admin only while its"
                                + " creator is an owner or admin of the organization.")
                UUID createdBy,
        @Schema(
                        description = "The customer's own data about the key: at most 50 properties, each a string,"
                                + " number, boolean or null; at most 4 KiB as JSON.",
                        example = "{\"plan\": \"gold\", \"seats\": 5}")
                Map<String, @Nullable Object> metadata,
        @Schema(
                        nullable = true,
                        pattern = KeyFields.EXTERNAL_ID_PATTERN,
                        description = "The customer's own name for whoever uses the key (e.g. their user id).",
                        example = "user_1234")
                @Nullable
                String externalId,
        @Schema(
                        description =
                                "False: the key is switched off; verify and portal calls refuse it (401 api_key_disabled).")
                boolean enabled,
        @ArraySchema(
                        arraySchema =
                                @Schema(
                                        nullable = true,
                                        description = "Null: usable from any address; else the IPv4 and IPv6"
                                                + " addresses and CIDR blocks it may be used from, in canonical form."),
                        schema = @Schema(example = "203.0.113.0/24"))
                @Nullable
                List<String> allowedIps,
        @Schema(description = "The key's rate limits; [] for none.") List<RateLimit> ratelimits,
        @Schema(nullable = true, description = "The key's credits; null: unlimited.") @Nullable CreditsView credits) {

    static ApiKey of(
            UUID id,
            UUID projectId,
            String name,
            List<String> permissions,
            Instant expiresAt,
            @Nullable Instant lastUsedAt,
            Instant createdAt,
            UUID createdBy,
            KeyShape shape,
            List<RateLimit> ratelimits,
            @Nullable CreditsView credits) {
        return new ApiKey(
                id,
                projectId,
                name,
                permissions,
                expiresAt,
                lastUsedAt,
                createdAt,
                createdBy,
                shape.metadata(),
                shape.externalId(),
                shape.enabled(),
                shape.allowedIpList(),
                ratelimits,
                credits);
    }

    /** The fields a customer shaped the key with. */
    KeyShape shape() {
        return new KeyShape(metadata, externalId, enabled, allowedIps == null ? null : AllowedIps.of(allowedIps));
    }
}
