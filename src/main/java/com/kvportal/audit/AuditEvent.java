package com.kvportal.audit;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** One line of the audit log, as the API shows it. */
public record AuditEvent(
        UUID id,
        Instant occurredAt,
        String action,
        Party actor,
        @Schema(nullable = true) @Nullable Party target,
        @Schema(nullable = true) @Nullable UUID projectId,
        @Schema(nullable = true) @Nullable String ip,
        @Schema(nullable = true) @Nullable String userAgent,
        @Schema(description = "What the action changed; never a raw key, a digest or a password.")
                Map<String, Object> details) {

    /**
     * Who acted, or what was acted on: {@code type} is e.g. {@code customer}, {@code api_key}, {@code provider},
     * {@code system} for an actor and {@code api_key}, {@code project}, {@code subscription} for a target.
     */
    @Schema(name = "AuditParty")
    public record Party(
            @Schema(example = "customer") String type,
            @Schema(nullable = true) @Nullable String id,
            @Schema(nullable = true) @Nullable String label) {

        /** A customer, labelled with their email. */
        static Party customer(UUID id, @Nullable String email) {
            return of("customer", id, email);
        }

        /** What is of {@code type} and has this id, e.g. {@code api_key} labelled with the key's name. */
        static Party of(String type, UUID id, @Nullable String label) {
            return new Party(type, id.toString(), label);
        }
    }
}
