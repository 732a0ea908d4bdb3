package com.kvportal.apikey;

import com.kvportal.apikey.limits.CreditsView;
import com.kvportal.apikey.limits.RateLimit;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
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
        @Schema(description = "The key's rate limits; [] for none.") List<RateLimit> ratelimits,
        @Schema(nullable = true, description = "The key's credits; null: unlimited.") @Nullable CreditsView credits) {}
