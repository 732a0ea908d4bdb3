package com.kvportal.webhooks;

import com.kvportal.support.Api;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;

/** What the tests of claiming queue: an endpoint made through the API, and deliveries written straight into the outbox. */
final class QueuedDeliveries {

    private QueuedDeliveries() {}

    static UUID endpoint(Api api) {
        return UUID.fromString(api.createWebhookEndpoint(Map.of("url", "https://hooks.example.invalid/kv-portal"))
                .id());
    }

    /** A delivery of an event of its own, due {@code dueAgo} ago, or asked to be retried {@code retryAskedAgo} ago. */
    static UUID delivery(JdbcClient jdbc, UUID endpoint, String status, String dueAgo, @Nullable String retryAskedAgo) {
        String event = "msg_" + UUID.randomUUID().toString().replace("-", "");
        jdbc.sql(
                        """
                insert into webhook_events (id, organization_id, type, body)
                select ?, organization_id, 'webhook.test', '{}' from webhook_endpoints where id = ?""")
                .params(event, endpoint)
                .update();
        UUID id = UUID.randomUUID();
        jdbc.sql(
                        """
                insert into webhook_deliveries (id, endpoint_id, event_id, status, next_attempt_at, retry_requested_at)
                values (?, ?, ?, ?, now() - cast(? as interval), now() - cast(? as interval))""")
                .params(id, endpoint, event, status, dueAgo, retryAskedAgo)
                .update();
        return id;
    }
}
