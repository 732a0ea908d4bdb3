package com.kvportal.webhooks;

import static com.kvportal.support.StorageSamples.report;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.kvportal.support.Api;
import com.kvportal.support.Inbox;
import com.kvportal.support.SignedInTest;
import com.kvportal.support.WebhookReceiver;
import com.kvportal.support.WebhookReceiver.Received;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Members joining and leaving, and usage alerts, reach the organization's webhook endpoints, once each,
 * signed as a receiver verifies them; an event type the endpoint did not choose does not.
 */
@WebhookReceiver.Reachable
class MemberAndUsageEventsTest extends SignedInTest {

    private static final long GIB = 1L << 30;

    @Test
    void shouldTellTheEndpointOfAMemberJoiningAndBeingRemovedAndOfAThresholdCrossed() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String secret = session.createWebhookEndpoint(Map.of(
                            "url",
                            receiver.url(),
                            "events",
                            List.of("member.joined", "member.removed", "usage.threshold_crossed")))
                    .secret();

            String email = "joiner-" + UUID.randomUUID() + "@example.com";
            assertThat(session.post("/api/v1/invitations", Map.of("email", email, "role", "developer"))
                            .status())
                    .isEqualTo(201);
            String token = Inbox.token(new Inbox(baseUrl(), email).awaitMessage("You are invited"));
            Api.Response signup = api().post(
                            "/api/v1/auth/signup",
                            Map.of("email", email, "password", "correct horse battery", "invitation_token", token));
            assertThat(signup.status()).as(signup.toString()).isEqualTo(201);
            String customerId = signup.json().get("customer_id").asString();
            assertThat(session.send("DELETE", "/api/v1/members/" + customerId, null, null)
                            .status())
                    .isEqualTo(204);
            // 80 % of the free plan's 1 GiB: the 75 % threshold, not 90 % (and an api_key event would not be chosen)
            report(baseUrl(), account.projectId(), GIB * 8 / 10, Instant.now());
            session.post("/api/v1/api-keys", Map.of("name", "not chosen", "permissions", List.of("read")));

            await().atMost(Duration.ofSeconds(30))
                    .until(() -> receiver.received().size() >= 3);
            await().pollDelay(Duration.ofSeconds(2)).until(() -> true);
            List<Received> received = receiver.received();
            for (Received delivery : received) {
                delivery.verify(secret);
            }
            assertThat(received.stream().map(r -> r.json().get("type").asString()))
                    .containsExactlyInAnyOrder("member.joined", "member.removed", "usage.threshold_crossed");
            JsonNode joined = data(received, "member.joined");
            assertThat(joined.get("customer_id").asString()).isEqualTo(customerId);
            assertThat(joined.get("email").asString()).isEqualTo(email);
            assertThat(joined.get("role").asString()).isEqualTo("developer");
            assertThat(data(received, "member.removed").get("how").asString()).isEqualTo("removed");
            JsonNode crossed = data(received, "usage.threshold_crossed");
            assertThat(crossed.get("threshold_percent").asInt()).isEqualTo(75);
            assertThat(crossed.get("used_bytes").asLong()).isEqualTo(GIB * 8 / 10);
        }
    }

    private static JsonNode data(List<Received> received, String type) {
        return received.stream()
                .map(Received::json)
                .filter(body -> body.get("type").asString().equals(type))
                .findFirst()
                .orElseThrow()
                .get("data");
    }
}
