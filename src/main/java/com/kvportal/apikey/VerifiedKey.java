package com.kvportal.apikey;

import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import java.util.UUID;

/** What verify answers for a usable key. */
public record VerifiedKey(
        @Schema(description = "The customer who created the key.") UUID customerId,
        UUID projectId,
        UUID organizationId,
        @ArraySchema(schema = @Schema(allowableValues = {"read", "write", "admin"})) List<String> permissions) {}
