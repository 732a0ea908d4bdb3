package com.kvportal.webhooks;

import static com.kvportal.support.Problems.assertFieldErrors;
import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.SignedInTest;
import com.kvportal.webhooks.delivery.TargetPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The endpoints API with the default settings: only https:// URLs of public addresses. Every outcome of
 * every operation, with its code. Deliveries themselves: {@link WebhookDeliveryTest}.
 */
class WebhookEndpointsTest extends SignedInTest {

    static final String PATH = "/api/v1/webhook-endpoints";
    /** A public https URL whose host never resolves (RFC 2606): saved, and its attempts fail without traffic. */
    static final String PUBLIC_URL = "https://hooks.example.invalid/kv-portal";

    @Test
    void shouldCreateAnEndpointForEveryTypeAndShowItsSecretOnce() {
        Api.Response created = session.post(PATH, Map.of("url", PUBLIC_URL, "description", "orders service"));

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.header("Cache-Control")).isEqualTo("no-store");
        JsonNode body = created.json();
        assertThat(body.get("url").asString()).isEqualTo(PUBLIC_URL);
        assertThat(body.get("events").toString()).isEqualTo("[\"*\"]");
        assertThat(body.get("description").asString()).isEqualTo("orders service");
        assertThat(body.get("disabled").asBoolean()).isFalse();
        assertThat(body.get("secret").asString()).matches("whsec_[A-Za-z0-9+/]{43}=");
        assertThat(created.header("Location"))
                .isEqualTo(PATH + "/" + body.get("id").asString());

        Api.Response listed = session.get(PATH);
        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.json().get("endpoints")).hasSize(1);
        JsonNode item = listed.json().get("endpoints").get(0);
        assertThat(item.get("id").asString()).isEqualTo(body.get("id").asString());
        assertThat(item.has("secret")).isFalse();
        assertThat(listed.body()).doesNotContain(body.get("secret").asString());
    }

    @Test
    void shouldKeepTheChosenEventTypesEachOnce() {
        JsonNode body = session.post(
                        PATH,
                        Map.of(
                                "url",
                                PUBLIC_URL,
                                "events",
                                List.of("api_key.created", "invoice.paid", "api_key.created")))
                .json();

        assertThat(body.get("events").toString()).isEqualTo("[\"api_key.created\",\"invoice.paid\"]");
    }

    @Test
    void shouldRefuseUrlsThatAreNotHttpsOrPointAtNonPublicAddresses() {
        for (String url : List.of(
                "http://93.184.215.14/hooks",
                "ftp://93.184.215.14/hooks",
                "file:///etc/passwd",
                "https:///no-host",
                "not a url",
                "https://127.0.0.1/hooks",
                "https://127.5.6.7:8443/hooks",
                "https://localhost/hooks",
                "https://api.localhost/hooks",
                "https://10.0.0.8/hooks",
                "https://172.16.3.4/hooks",
                "https://192.168.1.1/hooks",
                "https://169.254.169.254/latest/meta-data",
                "https://100.64.0.1/hooks",
                "https://0.0.0.0/hooks",
                "https://224.0.0.1/hooks",
                "https://255.255.255.255/hooks",
                "https://[::]/hooks",
                "https://[::1]/hooks",
                "https://[fe80::1]/hooks",
                "https://[fd00::1]/hooks",
                "https://[ff02::1]/hooks",
                "https://[::ffff:127.0.0.1]/hooks",
                "https://[::ffff:10.0.0.1]/hooks",
                "https://[::ffff:7f00:1]/hooks",
                "https://[64:ff9b::a9fe:a9fe]/hooks",
                "https://user:pass@93.184.215.14/hooks",
                "https://93.184.215.14/hooks#fragment",
                "https://93.184.215.14/" + "a".repeat(TargetPolicy.MAX_URL_LENGTH))) {
            assertFieldErrors(session.post(PATH, Map.of("url", url)), "url");
        }
        assertThat(session.get(PATH).json().get("endpoints")).isEmpty();
    }

    @Test
    void shouldRefuseInvalidFieldsNamingEach() {
        assertFieldErrors(session.post(PATH, Map.of()), "url");
        assertFieldErrors(session.post(PATH, Map.of("url", PUBLIC_URL, "events", List.of("api_key.made"))), "events");
        assertFieldErrors(session.post(PATH, Map.of("url", PUBLIC_URL, "events", List.of())), "events");
        assertFieldErrors(
                session.post(PATH, Map.of("url", PUBLIC_URL, "events", List.of("*", "invoice.paid"))), "events");
        assertFieldErrors(session.post(PATH, Map.of("url", PUBLIC_URL, "description", "d".repeat(501))), "description");
        assertFieldErrors(session.post(PATH, Map.of("url", PUBLIC_URL, "description", "bell\u0007")), "description");
        assertFieldErrors(session.post(PATH, Map.of("url", PUBLIC_URL, "secret", "whsec_mine")), "secret");
        assertProblem(session.send("POST", PATH, "{\"url\":", "application/json"), 400, "malformed_json");
        assertProblem(session.send("POST", PATH, "url=x", "text/plain"), 415, "unsupported_media_type");
        assertThat(session.get(PATH).json().get("endpoints")).isEmpty();

        Api.Response fine = session.post(PATH, Map.of("url", PUBLIC_URL, "description", "d".repeat(500)));
        assertThat(fine.status()).as(fine.toString()).isEqualTo(201);
    }

    @Test
    void shouldAllowTenEndpointsPerOrganizationAndRefuseTheEleventh() {
        for (int i = 0; i < WebhookEndpoints.MAX_ENDPOINTS_PER_ORGANIZATION; i++) {
            assertThat(session.post(PATH, Map.of("url", PUBLIC_URL + "/" + i)).status())
                    .isEqualTo(201);
        }

        assertProblem(session.post(PATH, Map.of("url", PUBLIC_URL + "/11")), 409, "endpoint_limit_reached");
        assertThat(session.get(PATH).json().get("endpoints")).hasSize(10);
        // another organization has its own ten
        assertThat(signedUp().post(PATH, Map.of("url", PUBLIC_URL)).status()).isEqualTo(201);
    }

    @Test
    void shouldUpdateOnlyTheFieldsSent() {
        String id = create();

        Api.Response updated = session.patch(PATH + "/" + id, Map.of("events", List.of("invoice.paid")));
        assertThat(updated.status()).as(updated.toString()).isEqualTo(200);
        assertThat(updated.json().get("events").toString()).isEqualTo("[\"invoice.paid\"]");
        assertThat(updated.json().get("url").asString()).isEqualTo(PUBLIC_URL);

        JsonNode disabled = session.patch(PATH + "/" + id, Map.of("disabled", true, "description", "paused"))
                .json();
        assertThat(disabled.get("disabled").asBoolean()).isTrue();
        assertThat(disabled.get("description").asString()).isEqualTo("paused");
        assertThat(disabled.get("events").toString()).isEqualTo("[\"invoice.paid\"]");

        JsonNode every = session.patch(PATH + "/" + id, Map.of("events", List.of("*"), "disabled", false))
                .json();
        assertThat(every.get("events").toString()).isEqualTo("[\"*\"]");
        assertThat(every.get("disabled").asBoolean()).isFalse();

        assertFieldErrors(session.patch(PATH + "/" + id, Map.of("url", "https://10.1.2.3/x")), "url");
        assertFieldErrors(session.patch(PATH + "/" + id, Map.of("enabled", true)), "enabled");
        assertThat(session.get(PATH).json().get("endpoints").get(0).get("url").asString())
                .isEqualTo(PUBLIC_URL);
    }

    @Test
    void shouldDeleteAnEndpoint() {
        String id = create();

        assertThat(session.delete(PATH + "/" + id).status()).isEqualTo(204);
        assertThat(session.get(PATH).json().get("endpoints")).isEmpty();
        assertProblem(session.delete(PATH + "/" + id), 404, "webhook_endpoint_not_found");
    }

    @Test
    void shouldRotateTheSecret() {
        Api.WebhookEndpoint created = session.createWebhookEndpoint(Map.of("url", PUBLIC_URL));

        Api.Response rotated = session.post(PATH + "/" + created.id() + "/secret/rotate");

        assertThat(rotated.status()).as(rotated.toString()).isEqualTo(200);
        assertThat(rotated.header("Cache-Control")).isEqualTo("no-store");
        assertThat(rotated.json().get("secret").asString()).startsWith("whsec_").isNotEqualTo(created.secret());
    }

    @Test
    void shouldAnswer404ForAnotherOrganizationsEndpointAndChangeNothing() {
        String id = create();
        Api other = signedUp();
        String missing = UUID.randomUUID().toString();

        for (String endpoint : List.of(id, missing)) {
            assertProblem(
                    other.patch(PATH + "/" + endpoint, Map.of("disabled", true)), 404, "webhook_endpoint_not_found");
            assertProblem(other.delete(PATH + "/" + endpoint), 404, "webhook_endpoint_not_found");
            assertProblem(other.post(PATH + "/" + endpoint + "/secret/rotate"), 404, "webhook_endpoint_not_found");
            assertProblem(other.get(PATH + "/" + endpoint + "/deliveries"), 404, "webhook_endpoint_not_found");
            assertProblem(other.post(PATH + "/" + endpoint + "/test"), 404, "webhook_endpoint_not_found");
            assertProblem(
                    other.post(PATH + "/" + endpoint + "/deliveries/" + UUID.randomUUID() + "/retry"),
                    404,
                    "webhook_endpoint_not_found");
        }
        assertThat(other.get(PATH).json().get("endpoints")).isEmpty();
        JsonNode mine = session.get(PATH).json().get("endpoints").get(0);
        assertThat(mine.get("disabled").asBoolean()).isFalse();
        assertThat(session.get(PATH + "/" + id + "/deliveries").json().get("deliveries"))
                .isEmpty();
    }

    @Test
    void shouldQueueATestEventAndListItsDelivery() {
        String id = create();

        Api.Response test = session.post(PATH + "/" + id + "/test");

        assertThat(test.status()).as(test.toString()).isEqualTo(202);
        String eventId = test.json().get("event_id").asString();
        assertThat(eventId).matches("msg_[0-9a-f]{32}");
        JsonNode delivery = session.get(PATH + "/" + id + "/deliveries")
                .json()
                .get("deliveries")
                .get(0);
        assertThat(delivery.get("event_id").asString()).isEqualTo(eventId);
        assertThat(delivery.get("event_type").asString()).isEqualTo("webhook.test");
        assertThat(delivery.get("status").asString()).isEqualTo("pending");
        assertThat(count("select count(*) from webhook_events where id = ?", eventId))
                .isOne();
    }

    @Test
    void shouldAnswer404ForADeliveryOfAnotherEndpoint() {
        String mine = create();
        String other = create();
        String eventId = session.post(PATH + "/" + other + "/test")
                .json()
                .get("event_id")
                .asString();
        UUID deliveryId = jdbc.sql("select id from webhook_deliveries where event_id = ?")
                .param(eventId)
                .query(UUID.class)
                .single();

        assertProblem(
                session.post(PATH + "/" + mine + "/deliveries/" + deliveryId + "/retry"),
                404,
                "webhook_delivery_not_found");
        assertProblem(
                session.post(PATH + "/" + mine + "/deliveries/" + UUID.randomUUID() + "/retry"),
                404,
                "webhook_delivery_not_found");
        assertThat(session.post(PATH + "/" + other + "/deliveries/" + deliveryId + "/retry")
                        .status())
                .isEqualTo(202);
    }

    @Test
    void shouldPageTheDeliveriesNewestFirst() {
        String id = create();
        List<String> events = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            events.add(
                    0,
                    session.post(PATH + "/" + id + "/test")
                            .json()
                            .get("event_id")
                            .asString());
        }

        List<String> paged = new ArrayList<>();
        String cursor = null;
        do {
            JsonNode page = session.get(
                            PATH + "/" + id + "/deliveries?limit=2" + (cursor == null ? "" : "&cursor=" + cursor))
                    .json();
            page.get("deliveries").forEach(d -> paged.add(d.get("event_id").asString()));
            cursor = page.get("next_cursor").isNull()
                    ? null
                    : page.get("next_cursor").asString();
        } while (cursor != null);

        assertThat(paged).isEqualTo(events);
        assertFieldErrors(session.get(PATH + "/" + id + "/deliveries?limit=0"), "limit");
        assertFieldErrors(session.get(PATH + "/" + id + "/deliveries?limit=201"), "limit");
        assertFieldErrors(session.get(PATH + "/" + id + "/deliveries?cursor=bogus"), "cursor");
    }

    @Test
    void shouldRefuseAPathIdThatIsNotAUuid() {
        assertProblem(session.patch(PATH + "/not-an-id", Map.of("disabled", true)), 400, "validation_failed");
        assertProblem(session.get(PATH + "/not-an-id/deliveries"), 400, "validation_failed");
    }

    @Test
    void shouldNeedACredentialAndAnAdminKey() {
        assertProblem(api().get(PATH), 401, "unauthenticated");
        assertProblem(api().post(PATH, Map.of("url", PUBLIC_URL)), 401, "unauthenticated");
        String readKey = session.createKey("reader", "read", "write");
        assertProblem(Api.withKey(baseUrl(), readKey).get(PATH), 403, "insufficient_permissions");
        String adminKey = session.createKey("automation", "admin");
        assertThat(Api.withKey(baseUrl(), adminKey)
                        .post(PATH, Map.of("url", PUBLIC_URL))
                        .status())
                .isEqualTo(201);
        assertProblem(session.withoutCsrfEcho().post(PATH, Map.of("url", PUBLIC_URL)), 403, "csrf_failed");
    }

    @Test
    void shouldAuditEveryChangeWithoutTheSecret() {
        Api.WebhookEndpoint created = session.createWebhookEndpoint(Map.of("url", PUBLIC_URL));
        String id = created.id();
        session.patch(PATH + "/" + id, Map.of("description", "renamed"));
        String rotated = session.post(PATH + "/" + id + "/secret/rotate")
                .json()
                .get("secret")
                .asString();
        session.delete(PATH + "/" + id);

        Api.Response audit = session.get("/api/v1/audit-events?limit=4");
        List<String> actions = new ArrayList<>();
        audit.json().get("events").forEach(e -> actions.add(e.get("action").asString()));

        assertThat(actions)
                .containsExactly(
                        "webhook_endpoint.deleted",
                        "webhook_endpoint.secret_rotated",
                        "webhook_endpoint.updated",
                        "webhook_endpoint.created");
        JsonNode target = audit.json().get("events").get(0).get("target");
        assertThat(target.get("type").asString()).isEqualTo("webhook_endpoint");
        assertThat(target.get("id").asString()).isEqualTo(id);
        assertThat(audit.body()).doesNotContain(created.secret()).doesNotContain(rotated);
    }

    @Test
    void shouldRefuseTheEleventhTestOrRetryOfAnEndpointWithinAMinuteAndQueueNothing() {
        session.verifyEmail();
        String id = create();
        String other = create();
        // disabled: nothing is attempted, so a retry asked for stays asked for until an attempt takes it
        assertThat(session.patch(PATH + "/" + id, Map.of("disabled", true)).status())
                .isEqualTo(200);
        List<String> deliveries = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            Api.Response queued = session.post(PATH + "/" + id + "/test");
            assertThat(queued.status()).as(queued.toString()).isEqualTo(202);
            deliveries.add(queued.json().get("delivery_id").asString());
        }
        Api.Response tenth = session.post(PATH + "/" + id + "/deliveries/" + deliveries.get(1) + "/retry");
        assertThat(tenth.status()).as(tenth.toString()).isEqualTo(202);

        Api.Response test = session.post(PATH + "/" + id + "/test");
        Api.Response retry = session.post(PATH + "/" + id + "/deliveries/" + deliveries.get(0) + "/retry");

        for (Api.Response refused : List.of(test, retry)) {
            JsonNode problem = assertProblem(refused, 429, "too_many_requests");
            assertThat(problem.get("detail").asString())
                    .startsWith("At most 10 tests and retries of one webhook endpoint within a minute.");
            assertThat(Integer.parseInt(refused.header("Retry-After"))).isBetween(30, 60);
        }
        assertThat(count("select count(*) from webhook_deliveries where endpoint_id = ?::uuid", id))
                .isEqualTo(9);
        assertThat(count(
                        "select count(*) from webhook_events where organization_id = ? and type = 'webhook.test'",
                        account.organizationId()))
                .isEqualTo(9);
        assertThat(single(
                        String.class,
                        "select id::text from webhook_deliveries where endpoint_id = ?::uuid"
                                + " and retry_requested_at is not null",
                        id))
                .as("only the retry that was accepted is asked for")
                .isEqualTo(deliveries.get(1));
        // another endpoint of the organization has a budget of its own
        assertThat(session.post(PATH + "/" + other + "/test").status()).isEqualTo(202);
    }

    private String create() {
        return session.createWebhookEndpoint(Map.of("url", PUBLIC_URL)).id();
    }
}
