package com.kvportal.audit;

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
        @Nullable Party target,
        @Nullable UUID projectId,
        @Nullable String ip,
        @Nullable String userAgent,
        Map<String, Object> details) {

    /**
     * Who acted, or what was acted on: {@code type} is e.g. {@code customer}, {@code api_key}, {@code provider},
     * {@code system} for an actor and {@code api_key}, {@code project}, {@code subscription} for a target.
     */
    public record Party(String type, @Nullable String id, @Nullable String label) {}
}
