package com.kvportal.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.apikey.ApiKeyEvent;
import com.kvportal.webhooks.WebhookEndpointEvent;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The type of each key and webhook endpoint event, which the audit log records as its action (and outgoing webhooks
 * send for the key events an endpoint may subscribe to): derived from the record's name, so a renamed record must
 * not change a name customers and their audit logs already know.
 */
class EventTypesTest {

    private static final UUID ID = UUID.randomUUID();
    private static final Instant AT = Instant.parse("2026-11-27T00:00:00Z");

    @Test
    void eachKeyEventIsTypedApiKeyAndItsNameInSnakeCase() {
        List<ApiKeyEvent> events = List.of(
                new ApiKeyEvent.Created(ID, ID, ID, "k", List.of("read"), AT),
                new ApiKeyEvent.Updated(ID, ID, ID, "k", Map.of(), false),
                new ApiKeyEvent.Rolled(ID, ID, ID, "k", ID, AT, 60),
                new ApiKeyEvent.Disabled(ID, ID, ID, "k"),
                new ApiKeyEvent.Enabled(ID, ID, ID, "k"),
                new ApiKeyEvent.Revoked(ID, ID, ID, "k"),
                new ApiKeyEvent.Leaked(ID, ID, ID, "k", "kv_api_key", "https://example.com", "content"),
                new ApiKeyEvent.Expiring(ID, ID, ID, "k", AT, 7),
                new ApiKeyEvent.CreditsNoticed(ID, ID, ID, "k", false, 10),
                new ApiKeyEvent.CreditsNoticed(ID, ID, ID, "k", true, 0));

        assertThat(events)
                .extracting(ApiKeyEvent::type)
                .containsExactly(
                        "api_key.created",
                        "api_key.updated",
                        "api_key.rolled",
                        "api_key.disabled",
                        "api_key.enabled",
                        "api_key.revoked",
                        "api_key.leaked",
                        "api_key.expiring",
                        "api_key.credits_low",
                        "api_key.credits_exhausted");
    }

    @Test
    void eachEndpointEventIsTypedWebhookEndpointAndItsNameInSnakeCase() {
        String url = "https://example.com/hook";
        List<WebhookEndpointEvent> events = List.of(
                new WebhookEndpointEvent.Created(ID, ID, url),
                new WebhookEndpointEvent.Updated(ID, ID, url, Map.of()),
                new WebhookEndpointEvent.Deleted(ID, ID, url),
                new WebhookEndpointEvent.SecretRotated(ID, ID, url),
                new WebhookEndpointEvent.Disabled(ID, ID, url));

        assertThat(events)
                .extracting(WebhookEndpointEvent::type)
                .containsExactly(
                        "webhook_endpoint.created",
                        "webhook_endpoint.updated",
                        "webhook_endpoint.deleted",
                        "webhook_endpoint.secret_rotated",
                        "webhook_endpoint.disabled");
    }
}
