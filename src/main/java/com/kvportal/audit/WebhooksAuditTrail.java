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

    @EventListener
    void created(WebhookEndpointEvent.Created e) {
        endpoint(e, "webhook_endpoint.created", audit.actorOr(AuditLog.SYSTEM), Map.of());
    }

    @EventListener
    void updated(WebhookEndpointEvent.Updated e) {
        endpoint(e, "webhook_endpoint.updated", audit.actorOr(AuditLog.SYSTEM), Map.of("changes", e.changes()));
    }

    @EventListener
    void deleted(WebhookEndpointEvent.Deleted e) {
        endpoint(e, "webhook_endpoint.deleted", audit.actorOr(AuditLog.SYSTEM), Map.of());
    }

    @EventListener
    void secretRotated(WebhookEndpointEvent.SecretRotated e) {
        endpoint(e, "webhook_endpoint.secret_rotated", audit.actorOr(AuditLog.SYSTEM), Map.of());
    }

    @EventListener
    void disabled(WebhookEndpointEvent.Disabled e) {
        endpoint(e, "webhook_endpoint.disabled", AuditLog.SYSTEM, Map.of("reason", "failing"));
    }

    private void endpoint(WebhookEndpointEvent e, String action, Party actor, Map<String, Object> details) {
        audit.record(
                e.organizationId(),
                action,
                actor,
                Party.of("webhook_endpoint", e.endpointId(), e.url()),
                null,
                details);
    }
}
