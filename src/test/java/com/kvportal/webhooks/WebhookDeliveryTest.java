package com.kvportal.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.kvportal.support.Api;
import com.kvportal.support.Api.WebhookEndpoint;
import com.kvportal.support.SignedInTest;
import com.kvportal.support.WebhookReceiver;
import com.kvportal.support.WebhookReceiver.Mode;
import com.kvportal.support.WebhookReceiver.Received;
import com.kvportal.usage.Subscribe;
import com.standardwebhooks.exceptions.WebhookVerificationException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Deliveries to a real receiver on 127.0.0.1 (hence {@code allow-private-targets}), with the waits of docs/webhooks.md
 * shortened: a 2 s timeout, retries after 1 s, 1 s and 1 s. Every delivery the receiver gets is verified with the
 * Standard Webhooks reference library, as a customer's receiver would.
 */
@TestPropertySource(
        properties = {
            "kvportal.webhooks.allow-private-targets=true",
            "kvportal.webhooks.timeout=2s",
            "kvportal.webhooks.retry-schedule=1s,1s,1s",
            "kvportal.webhooks.poll-interval=100ms",
            "kvportal.api-keys.expiry-scan-interval=300ms",
            "kvportal.api-keys.expiry-scan-initial-delay=300ms"
        })
public class WebhookDeliveryTest extends SignedInTest {

    static final String PATH = "/api/v1/webhook-endpoints";
    static final Duration WAIT = Duration.ofSeconds(30);

    WebhookReceiver receiver;

    @BeforeEach
    void startReceiver() {
        receiver = new WebhookReceiver();
    }

    @AfterEach
    void stopReceiver() {
        receiver.close();
    }

    @Test
    void shouldDeliverKeyEventsSignedWithTheKeysListItemAndNeverTheRawKey() throws Exception {
        WebhookEndpoint endpoint = create(Map.of("url", receiver.url()));

        String rawKey = session.createKey("billing-worker", "read", "write");
        String keyId = session.keyId("billing-worker");
        session.delete("/api/v1/api-keys/" + keyId);

        List<Received> received = awaitReceived(2);
        for (Received delivery : received) {
            delivery.verify(endpoint.secret());
            JsonNode body = delivery.json();
            assertThat(body.get("id").asString()).isEqualTo(delivery.id()).startsWith("msg_");
            assertThat(body.get("organization_id").asString())
                    .isEqualTo(account.organizationId().toString());
            assertThat(Instant.parse(body.get("created_at").asString())).isBefore(Instant.now());
            assertThat(body.get("data").get("id").asString()).isEqualTo(keyId);
            assertThat(body.get("data").get("name").asString()).isEqualTo("billing-worker");
            assertThat(body.get("data").get("permissions").toString()).isEqualTo("[\"read\",\"write\"]");
            assertThat(body.get("data").has("expires_at")).isTrue();
            assertThat(delivery.body()).doesNotContain(rawKey).doesNotContain(rawKey.substring(3));
            assertThat(delivery.headers().get("content-type")).isEqualTo("application/json");
        }
        assertThat(received.stream().map(r -> r.json().get("type").asString()))
                .containsExactlyInAnyOrder("api_key.created", "api_key.revoked");
        await().atMost(WAIT)
                .untilAsserted(() -> assertThat(deliveries(endpoint.id())).allSatisfy(d -> {
                    assertThat(d.get("status").asString()).isEqualTo("delivered");
                    assertThat(d.get("attempts").asInt()).isOne();
                    assertThat(d.get("response_status").asInt()).isEqualTo(204);
                    assertThat(d.get("duration_ms").isNumber()).isTrue();
                    assertThat(d.get("last_attempt_at").isNull()).isFalse();
                    assertThat(d.get("next_attempt_at").isNull()).isTrue();
                    assertThat(d.get("last_error").isNull()).isTrue();
                }));
    }

    @Test
    void shouldDeliverADisabledAndAnEnabledKeyToAnEndpointSubscribedToThem() throws Exception {
        WebhookEndpoint endpoint =
                create(Map.of("url", receiver.url(), "events", List.of("api_key.disabled", "api_key.enabled")));
        String keyId = session.newKeyId("switched");
        String path = "/api/v1/api-keys/" + keyId;

        assertThat(session.patch(path, Map.of("enabled", false)).status()).isEqualTo(200);
        awaitReceived(1);
        assertThat(session.patch(path, Map.of("enabled", true)).status()).isEqualTo(200);
        List<Received> received = awaitReceived(2);

        assertThat(received.stream().map(r -> r.json().get("type").asString()))
                .as("in order, and not api_key.created, which the endpoint did not choose")
                .containsExactly("api_key.disabled", "api_key.enabled");
        for (int i = 0; i < 2; i++) {
            Received delivery = received.get(i);
            delivery.verify(endpoint.secret());
            JsonNode data = delivery.json().get("data");
            assertThat(data.get("id").asString()).isEqualTo(keyId);
            assertThat(data.get("name").asString()).isEqualTo("switched");
            assertThat(data.get("enabled").asBoolean())
                    .as("the key as the change left it")
                    .isEqualTo(i == 1);
        }
        assertThat(session.patch(path, Map.of("enabled", true)).status()).isEqualTo(200);
        Thread.sleep(1_000);
        assertThat(receiver.received())
                .as("enabling an enabled key is no event")
                .hasSize(2);
    }

    @Test
    void shouldRefuseADeliveryWhoseSignatureIsNotTheEndpointsSecret() {
        create(Map.of("url", receiver.url()));
        WebhookEndpoint other = create(Map.of("url", receiver.url() + "/other", "events", List.of("invoice.paid")));

        session.createKey("worker");

        Received delivery = awaitReceived(1).get(0);
        assertThatThrownBy(() -> delivery.verify(other.secret())).isInstanceOf(WebhookVerificationException.class);
        Received tampered = new Received(delivery.headers(), delivery.body().replace("worker", "w0rker"), 0);
        assertThatThrownBy(() -> tampered.verify(other.secret())).isInstanceOf(WebhookVerificationException.class);
    }

    @Test
    void shouldRetryWhileTheReceiverIsDownAndDeliverOnceItIsBackUnderTheSameWebhookId() throws Exception {
        receiver.answer(Mode.FAIL);
        WebhookEndpoint endpoint = create(Map.of("url", receiver.url()));
        String eventId = test(endpoint);

        await().atMost(WAIT).until(() -> receiver.received().size() >= 2);
        JsonNode failing = deliveries(endpoint.id()).get(0);
        assertThat(failing.get("status").asString()).isEqualTo("pending");
        assertThat(failing.get("response_status").asInt()).isEqualTo(500);
        assertThat(failing.get("last_error").isNull()).as("the status tells").isTrue();
        receiver.answer(Mode.OK);

        awaitLatestDelivery(endpoint, "delivered");
        List<Received> received = receiver.received();
        assertThat(received).allSatisfy(r -> assertThat(r.id()).isEqualTo(eventId));
        assertThat(received.get(received.size() - 1).json().get("type").asString())
                .isEqualTo("webhook.test");
        received.get(received.size() - 1).verify(endpoint.secret());
        JsonNode delivered = deliveries(endpoint.id()).get(0);
        assertThat(delivered.get("attempts").asInt()).isEqualTo(received.size());
        assertThat(delivered.get("response_status").asInt()).isEqualTo(204);
    }

    @Test
    void shouldFailADeliveryAfterTheLastRetryOfTheSchedule() {
        WebhookEndpoint endpoint = testedAgainst(Mode.FAIL);

        JsonNode failed = awaitLatestDelivery(endpoint, "failed");
        assertThat(failed.get("attempts").asInt()).isEqualTo(4); // the first attempt and 3 retries
        assertThat(failed.get("response_status").asInt()).isEqualTo(500);
        assertThat(failed.get("next_attempt_at").isNull()).isTrue();
        assertThat(receiver.received()).hasSize(4);
    }

    @Test
    void shouldEndAnAttemptToAHangingReceiverAtTheTimeoutWhileTheApiAnswers() {
        receiver.answer(Mode.HANG);
        WebhookEndpoint endpoint = create(Map.of("url", receiver.url()));
        for (int i = 0; i < 10; i++) {
            test(endpoint); // more hanging attempts than one organization may have in flight
        }

        await().atMost(WAIT).until(() -> deliveries(endpoint.id()).stream()
                .anyMatch(d ->
                        d.get("attempts").asInt() >= 1 && !d.get("duration_ms").isNull()));
        JsonNode timedOut = deliveries(endpoint.id()).stream()
                .filter(d -> !d.get("duration_ms").isNull())
                .findFirst()
                .orElseThrow();
        assertThat(timedOut.get("response_status").isNull()).isTrue();
        assertThat(timedOut.get("last_error").asString()).isEqualTo("timeout");
        assertThat(timedOut.get("status").asString()).isEqualTo("pending");
        assertThat(timedOut.get("duration_ms").asInt()).isBetween(1900, 2900);
        // hanging receivers hold delivery workers only: the API goes on answering
        assertThat(session.get(PATH).status()).isEqualTo(200);
    }

    @Test
    void shouldCountAClosedConnectionAsNoAnswer() {
        WebhookEndpoint endpoint = testedAgainst(Mode.CLOSE);

        awaitUnansweredAttempt(endpoint, "connection_closed");
    }

    @Test
    void shouldRecordARefusedConnectionAndClearItOnceAnAttemptIsDelivered() {
        String url = receiver.url();
        int port = receiver.port();
        receiver.close(); // nothing listens on the port now
        WebhookEndpoint endpoint = create(Map.of("url", url));
        test(endpoint);

        awaitUnansweredAttempt(endpoint, "connection_refused");

        receiver = new WebhookReceiver(port);
        JsonNode delivered = awaitLatestDelivery(endpoint, "delivered");
        assertThat(delivered.get("attempts").asInt()).isGreaterThan(1);
        assertThat(delivered.get("response_status").asInt()).isEqualTo(204);
        assertThat(delivered.get("last_error").isNull()).isTrue();
    }

    @Test
    void shouldStopReadingAnAnswerWithoutEndAndCountItsStatus() {
        WebhookEndpoint endpoint = testedAgainst(Mode.ENDLESS_BODY);

        JsonNode delivered = awaitLatestDelivery(endpoint, "delivered");
        assertThat(delivered.get("response_status").asInt()).isEqualTo(200);
        // read whole, the body would have held the attempt until the 2 s timeout
        assertThat(delivered.get("duration_ms").asInt()).isLessThan(1500);
        await().atMost(WAIT).until(() -> receiver.endlessBodiesCut() == 1);
    }

    @Test
    void shouldMakeOneMoreAttemptOnRequestUnderTheSameWebhookId() throws Exception {
        WebhookEndpoint endpoint = create(Map.of("url", receiver.url()));
        String eventId = test(endpoint);
        String deliveryId = awaitLatestDelivery(endpoint, "delivered").get("id").asString();

        Api.Response retried = session.post(PATH + "/" + endpoint.id() + "/deliveries/" + deliveryId + "/retry");

        assertThat(retried.status()).as(retried.toString()).isEqualTo(202);
        assertThat(retried.json().get("event_id").asString()).isEqualTo(eventId);
        await().atMost(WAIT).untilAsserted(() -> assertThat(
                        deliveries(endpoint.id()).get(0).get("attempts").asInt())
                .isEqualTo(2));
        assertThat(receiver.received()).hasSize(2).allSatisfy(r -> assertThat(r.id())
                .isEqualTo(eventId));
        receiver.received().get(1).verify(endpoint.secret());
        assertThat(deliveries(endpoint.id()).get(0).get("status").asString()).isEqualTo("delivered");
    }

    @Test
    void shouldRetryAFailedDeliveryOnRequest() {
        WebhookEndpoint endpoint = testedAgainst(Mode.FAIL);
        String deliveryId = awaitLatestDelivery(endpoint, "failed").get("id").asString();
        receiver.answer(Mode.OK);

        session.post(PATH + "/" + endpoint.id() + "/deliveries/" + deliveryId + "/retry");

        assertThat(awaitLatestDelivery(endpoint, "delivered").get("attempts").asInt())
                .isEqualTo(5);
    }

    @Test
    void shouldSignWithTheOldSecretBesideTheNewOneUntilASecondRotation() throws Exception {
        WebhookEndpoint endpoint = create(Map.of("url", receiver.url()));
        String second = rotate(endpoint);

        test(endpoint);
        Received overlapping = awaitReceived(1).get(0);
        assertThat(overlapping.headers().get("webhook-signature")).matches("v1,\\S+ v1,\\S+");
        overlapping.verify(endpoint.secret());
        overlapping.verify(second);

        String third = rotate(endpoint);
        test(endpoint);
        Received after = awaitReceived(2).get(1);
        assertThat(after.headers().get("webhook-signature")).matches("v1,\\S+ v1,\\S+");
        after.verify(second);
        after.verify(third);
        assertThatThrownBy(() -> after.verify(endpoint.secret())).isInstanceOf(WebhookVerificationException.class);
    }

    @Test
    void shouldDeliverOnlyTheChosenTypesButTheTestEventAlways() {
        WebhookEndpoint endpoint = create(Map.of("url", receiver.url(), "events", List.of("invoice.paid")));
        session.createKey("not-delivered");

        String eventId = test(endpoint);

        Received received = awaitReceived(1).get(0);
        assertThat(received.id()).isEqualTo(eventId);
        assertThat(deliveries(endpoint.id())).hasSize(1);
    }

    @Test
    void shouldHoldDeliveriesOfADisabledEndpointUntilItIsEnabled() {
        WebhookEndpoint endpoint = create(Map.of("url", receiver.url()));
        session.patch(PATH + "/" + endpoint.id(), Map.of("disabled", true));
        String eventId = test(endpoint);
        session.createKey("while-disabled");

        assertThat(receiver.received()).isEmpty();
        assertThat(deliveries(endpoint.id()))
                .allSatisfy(d -> assertThat(d.get("attempts").asInt()).isZero());

        session.patch(PATH + "/" + endpoint.id(), Map.of("disabled", false));

        // the test event was queued while disabled; the key's event was not (no delivery to a disabled endpoint)
        assertThat(awaitReceived(1).get(0).id()).isEqualTo(eventId);
    }

    @Test
    void shouldTellOfKeysAboutToExpireOncePerKeyAndLead() {
        WebhookEndpoint endpoint = create(Map.of("url", receiver.url(), "events", List.of("api_key.expiring")));
        Instant now = Instant.now();
        Map<String, Object> week = new LinkedHashMap<>();
        week.put("name", "expires-in-3-days");
        week.put("expires_at", now.plus(3, ChronoUnit.DAYS).toString());
        session.post("/api/v1/api-keys", week);
        Map<String, Object> day = new LinkedHashMap<>();
        day.put("name", "expires-in-12-hours");
        day.put("expires_at", now.plus(12, ChronoUnit.HOURS).toString());
        session.post("/api/v1/api-keys", day);
        session.createKey("expires-in-90-days");

        List<Received> received = awaitReceived(2);
        await().pollDelay(Duration.ofSeconds(2)).atMost(WAIT).until(() -> true); // several more scans
        assertThat(receiver.received()).hasSize(2);
        assertThat(received.stream().map(r -> r.json().get("data").get("name").asString()))
                .containsExactlyInAnyOrder("expires-in-3-days", "expires-in-12-hours");
        assertThat(received)
                .allSatisfy(r -> assertThat(r.json().get("type").asString()).isEqualTo("api_key.expiring"));
        assertThat(deliveries(endpoint.id())).hasSize(2);
    }

    @Test
    void shouldTellOfAPaidInvoice() {
        create(Map.of("url", receiver.url(), "events", List.of("invoice.paid")));
        session.verifyEmail();

        Subscribe.pro(session, api());

        Received paid = awaitReceived(1).get(0);
        JsonNode body = paid.json();
        assertThat(body.get("type").asString()).isEqualTo("invoice.paid");
        assertThat(body.get("data").get("status").asString()).isEqualTo("paid");
        assertThat(body.get("data").get("provider_invoice_id").asString()).startsWith("in_");
        assertThat(body.get("data").get("organization_id").asString())
                .isEqualTo(account.organizationId().toString());
    }

    private WebhookEndpoint create(Map<String, Object> body) {
        return session.createWebhookEndpoint(body);
    }

    private String test(WebhookEndpoint endpoint) {
        Api.Response queued = session.post(PATH + "/" + endpoint.id() + "/test");
        assertThat(queued.status()).as(queued.toString()).isEqualTo(202);
        return queued.json().get("event_id").asString();
    }

    private String rotate(WebhookEndpoint endpoint) {
        return session.post(PATH + "/" + endpoint.id() + "/secret/rotate")
                .json()
                .get("secret")
                .asString();
    }

    private List<JsonNode> deliveries(String endpointId) {
        Api.Response page = session.get(PATH + "/" + endpointId + "/deliveries");
        assertThat(page.status()).as(page.toString()).isEqualTo(200);
        return page.json().get("deliveries").valueStream().toList();
    }

    /** An endpoint to the receiver, which answers in this mode, sent one test event. */
    private WebhookEndpoint testedAgainst(Mode mode) {
        receiver.answer(mode);
        WebhookEndpoint endpoint = create(Map.of("url", receiver.url()));
        test(endpoint);
        return endpoint;
    }

    /** Waits until the first attempt of the endpoint's first delivery ended without an answer, with {@code error}. */
    private void awaitUnansweredAttempt(WebhookEndpoint endpoint, String error) {
        await().atMost(WAIT)
                .until(() ->
                        !deliveries(endpoint.id()).get(0).get("duration_ms").isNull());
        JsonNode attempted = deliveries(endpoint.id()).get(0);
        assertThat(attempted.get("response_status").isNull()).isTrue();
        assertThat(attempted.get("last_error").asString()).isEqualTo(error);
        assertThat(attempted.get("status").asString()).isEqualTo("pending");
    }

    /** Waits until the endpoint's latest delivery has this status, and answers it. */
    private JsonNode awaitLatestDelivery(WebhookEndpoint endpoint, String status) {
        await().atMost(WAIT).untilAsserted(() -> assertThat(
                        deliveries(endpoint.id()).get(0).get("status").asString())
                .isEqualTo(status));
        return deliveries(endpoint.id()).get(0);
    }

    private List<Received> awaitReceived(int count) {
        await().atMost(WAIT).until(() -> receiver.received().size() >= count);
        return receiver.received();
    }
}
