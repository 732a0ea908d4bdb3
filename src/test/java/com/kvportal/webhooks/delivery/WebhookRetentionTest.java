package com.kvportal.webhooks.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.SignedInTest;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The delivery log keeps finished deliveries 30 days; pending ones, asked-for retries and their events stay. */
class WebhookRetentionTest extends SignedInTest {

    @Autowired
    WebhookRetention retention;

    @Test
    void shouldDeleteFinishedDeliveriesAfterThirtyDaysAndTheirEventsOnceNoDeliveryIsLeft() {
        // disabled: nothing here is attempted while the test looks
        UUID endpoint = UUID.fromString(session.createWebhookEndpoint(Map.of("url", "https://hooks.example.com/kv"))
                .id());
        jdbc.sql("update webhook_endpoints set disabled = true where id = ?")
                .param(endpoint)
                .update();
        String oldDelivered = delivery(endpoint, "delivered", false, "31 days");
        String oldFailed = delivery(endpoint, "failed", false, "31 days");
        String oldPending = delivery(endpoint, "pending", false, "31 days");
        String oldRetrying = delivery(endpoint, "failed", true, "31 days");
        String recent = delivery(endpoint, "delivered", false, "29 days");

        retention.purge();

        assertThat(jdbc.sql("select event_id from webhook_deliveries where endpoint_id = ? order by event_id")
                        .param(endpoint)
                        .query(String.class)
                        .list())
                .containsExactlyInAnyOrder(oldPending, oldRetrying, recent);
        assertThat(count("select count(*) from webhook_events where id in (?, ?)", oldDelivered, oldFailed))
                .isZero();
        assertThat(count("select count(*) from webhook_events where id in (?, ?, ?)", oldPending, oldRetrying, recent))
                .isEqualTo(3);
    }

    /** An event and its one delivery, both created {@code age} ago; answers the event's id. */
    private String delivery(UUID endpoint, String status, boolean retryRequested, String age) {
        String event = "msg_test" + UUID.randomUUID().toString().replace("-", "");
        jdbc.sql(
                        """
                        insert into webhook_events (id, organization_id, type, body, created_at)
                        values (?, ?, 'webhook.test', '{}', now() - cast(? as interval))""")
                .params(event, account.organizationId(), age)
                .update();
        jdbc.sql(
                        """
                        insert into webhook_deliveries (id, endpoint_id, event_id, status, retry_requested_at,
                                                        created_at, next_attempt_at)
                        values (?, ?, ?, ?, case when ? then now() end, now() - cast(? as interval),
                                now() + interval '1 day')""")
                .params(UUID.randomUUID(), endpoint, event, status, retryRequested, age)
                .update();
        return event;
    }
}
