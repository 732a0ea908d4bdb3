package com.kvportal.audit;

import com.kvportal.audit.AuditEvent.Party;
import com.kvportal.webhooks.WebhookEndpointEvent;
import java.util.Map;
import lombok.RequiredArgsConstructor;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/** Turns webhook endpoint events into audit lines, inside the transaction that published them. */
@Component
@RequiredArgsConstructor
class WebhooksAuditTrail {

    private final AuditLog audit;

    /** An endpoint created, deleted, or given a new secret: the line's action says which, and it holds nothing more. */
    @EventListener({
        WebhookEndpointEvent.Created.class,
        WebhookEndpointEvent.Deleted.class,
        WebhookEndpointEvent.SecretRotated.class
    })
    void changed(WebhookEndpointEvent e) {
        audit.byCaller(e.organizationId(), e.type(), endpoint(e), Map.of());
    }

    @EventListener
    void updated(WebhookEndpointEvent.Updated e) {
        audit.byCaller(e.organizationId(), e.type(), endpoint(e), Map.of("changes", e.changes()));
    }

    /** Disabled by the delivery worker, after failing for too long: the service's own act, whoever is signed in. */
    @EventListener
    void disabled(WebhookEndpointEvent.Disabled e) {
        audit.record(e.organizationId(), e.type(), AuditLog.SYSTEM, endpoint(e), null, Map.of("reason", "failing"));
    }

    /** The endpoint an event is about; an endpoint belongs to the organization, not to a project. */
    private static Party endpoint(WebhookEndpointEvent e) {
        return Party.of("webhook_endpoint", e.endpointId(), e.url());
    }
}
