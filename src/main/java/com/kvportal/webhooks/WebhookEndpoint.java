package com.kvportal.webhooks;

import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** An endpoint as the API shows it: never its secret. */
record WebhookEndpoint(
        UUID id,
        @Schema(maxLength = 2048, example = "https://example.com/hooks/kv-portal") String url,
        @ArraySchema(
                        arraySchema =
                                @Schema(description = "The event types it gets; [\"*\"]: every type, now and future."),
                        schema = @Schema(example = "api_key.created"))
                List<String> events,
        @Schema(maxLength = 500) String description,
        @Schema(description = "True: no delivery is attempted (set by PATCH, or after 5 days of failing everything).")
                boolean disabled,
        Instant createdAt) {}
