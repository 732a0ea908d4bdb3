package com.kvportal.webhooks;

import com.kvportal.common.WireName;
import java.util.Map;
import java.util.UUID;

/**
 * What happened to a webhook endpoint, published inside the transaction of the change (the audit log writes its line
 * there). Never carries a secret.
 */
public sealed interface WebhookEndpointEvent {

    UUID organizationId();

    UUID endpointId();

    String url();

    /** What happened, as the audit log names it: {@code webhook_endpoint.} and the record's name in snake case. */
    default String type() {
        return "webhook_endpoint." + WireName.ofType(getClass());
    }

    record Created(UUID organizationId, UUID endpointId, String url) implements WebhookEndpointEvent {}

    /** @param changes per changed field its old and new value */
    record Updated(UUID organizationId, UUID endpointId, String url, Map<String, Map<String, Object>> changes)
            implements WebhookEndpointEvent {}

    record Deleted(UUID organizationId, UUID endpointId, String url) implements WebhookEndpointEvent {}

    record SecretRotated(UUID organizationId, UUID endpointId, String url) implements WebhookEndpointEvent {}

    /** Disabled after failing every attempt for {@code kvportal.webhooks.disable-after}. */
    record Disabled(UUID organizationId, UUID endpointId, String url) implements WebhookEndpointEvent {}
}
