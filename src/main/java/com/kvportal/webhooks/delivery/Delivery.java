package com.kvportal.webhooks.delivery;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** A delivery of one event to one endpoint, as its log shows it. */
public record Delivery(
        UUID id,
        @Schema(description = "The event's id: the body's id and every attempt's webhook-id.", example = "msg_…")
                String eventId,
        @Schema(example = "api_key.created") String eventType,
        @Schema(allowableValues = {"pending", "delivered", "failed"}) String status,
        int attempts,
        @Schema(
                        nullable = true,
                        description = "The last attempt's answer; null when none came (timeout, refused or"
                                + " closed connection) or before the first attempt.")
                @Nullable
                Integer responseStatus,
        @Schema(nullable = true) @Nullable Integer durationMs,
        @Schema(
                        nullable = true,
                        description = "Why the last attempt got no answer: `timeout` (none within the time allowed),"
                                + " `connection_refused` (nothing listens on the port), `connection_closed` (closed"
                                + " or reset before answering), `unreachable` (no route to the host), `dns` (the"
                                + " host name did not resolve), `tls` (the TLS handshake or certificate check"
                                + " failed), `target_refused` (the host's address is not public, or the URL is no"
                                + " longer allowed), `invalid_response` (the answer was not HTTP), `network` (another"
                                + " network failure). Null when an answer came (`response_status` tells), before the"
                                + " first attempt, and after a delivered attempt.",
                        allowableValues = {
                            "timeout",
                            "connection_refused",
                            "connection_closed",
                            "unreachable",
                            "dns",
                            "tls",
                            "target_refused",
                            "invalid_response",
                            "network"
                        })
                @Nullable
                String lastError,
        @Schema(nullable = true) @Nullable Instant lastAttemptAt,
        @Schema(nullable = true, description = "When the next attempt is due; null once delivered or failed.") @Nullable
                Instant nextAttemptAt,
        @JsonIgnore Instant createdAt) {}
