package com.kvportal.usage.web;

import com.kvportal.usage.reconciliation.Reconciliation;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import lombok.RequiredArgsConstructor;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.stereotype.Component;

/**
 * {@code GET /actuator/reconciliation?from=…&to=…} (ISO 8601 instants): the operator's reconciliation of the periods
 * that start in {@code [from, to)} with the provider's invoice items. Guarded like every actuator endpoint but
 * health.
 */
@Component
@Endpoint(id = "reconciliation")
@RequiredArgsConstructor
public class ReconciliationEndpoint {

    private final Reconciliation reconciliation;

    @ReadOperation
    Reconciliation.Report reconcile(String from, String to) {
        Instant start = instant("from", from);
        Instant end = instant("to", to);
        if (!start.isBefore(end)) {
            throw new InvalidEndpointRequestException("from must be before to", "from must be before to");
        }
        return reconciliation.run(start, end);
    }

    private static Instant instant(String name, String value) {
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            String reason = name + " must be an ISO 8601 instant such as 2026-11-21T00:00:00Z";
            throw new InvalidEndpointRequestException(reason, reason);
        }
    }
}
