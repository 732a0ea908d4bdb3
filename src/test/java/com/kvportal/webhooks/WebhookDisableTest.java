package com.kvportal.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.kvportal.support.Api;
import com.kvportal.support.Inbox;
import com.kvportal.support.SignedInTest;
import com.kvportal.support.WebhookReceiver;
import com.kvportal.support.WebhookReceiver.Mode;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/** An endpoint that fails everything for {@code disable-after} (5 days; 2 s here) is disabled and its owner mailed. */
@TestPropertySource(
        properties = {
            "kvportal.webhooks.allow-private-targets=true",
            "kvportal.webhooks.timeout=2s",
            "kvportal.webhooks.retry-schedule=300ms,300ms,300ms,300ms,300ms,300ms,300ms,300ms,300ms,300ms",
            "kvportal.webhooks.poll-interval=100ms",
            "kvportal.webhooks.disable-after=2s"
        })
class WebhookDisableTest extends SignedInTest {

    @Test
    void shouldDisableAnEndpointThatFailedEverythingForTheWindowAndMailTheOwner() {
        try (WebhookReceiver receiver = new WebhookReceiver().answer(Mode.FAIL)) {
            String id = createAndTest(receiver);

            await().atMost(Duration.ofSeconds(30)).until(() -> session.get("/api/v1/webhook-endpoints")
                    .json()
                    .get("endpoints")
                    .get(0)
                    .get("disabled")
                    .asBoolean());
            int attempts = receiver.received().size();
            assertThat(attempts).isGreaterThan(1);

            JsonNode mail = new Inbox(baseUrl(), account.email()).awaitMessage("A webhook endpoint was disabled");
            assertThat(mail.get("text").asString()).contains(receiver.url());
            Api.Response audit = session.get("/api/v1/audit-events?limit=1");
            assertThat(audit.json().get("events").get(0).get("action").asString())
                    .isEqualTo("webhook_endpoint.disabled");
            // no more attempts while disabled
            session.post("/api/v1/webhook-endpoints/" + id + "/test");
            await().pollDelay(Duration.ofSeconds(1)).until(() -> true);
            assertThat(receiver.received()).hasSize(attempts);
        }
    }

    @Test
    void shouldKeepCountingWhileTheEndpointIsEditedAndDisableItStill() {
        try (WebhookReceiver receiver = new WebhookReceiver().answer(Mode.FAIL)) {
            String id = createAndTest(receiver);

            // edits every 0.5 s, more often than the 2 s window: only enabling it again starts the count afresh
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> session.patch(
                                    "/api/v1/webhook-endpoints/" + id,
                                    Map.of("description", "edited " + System.nanoTime()))
                            .json()
                            .get("disabled")
                            .asBoolean());
        }
    }

    /** An endpoint to the receiver, sent one test event: its id. */
    private String createAndTest(WebhookReceiver receiver) {
        String id = session.createWebhookEndpoint(Map.of("url", receiver.url())).id();
        session.post("/api/v1/webhook-endpoints/" + id + "/test");
        return id;
    }
}
