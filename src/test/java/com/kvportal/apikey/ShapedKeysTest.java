package com.kvportal.apikey;

import static com.kvportal.support.Problems.assertFieldErrors;
import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.SignedInTest;
import java.net.http.HttpRequest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Keys the customer shapes: metadata, external id, enabled and allowed addresses through create, update, list, roll
 * and verify; a disabled key and a key used from outside its addresses refused with their codes, in their order.
 */
class ShapedKeysTest extends SignedInTest {

    private static final String VERIFY = "/api/v1/api-keys/verify";

    private Api.Response create(Map<String, Object> body) {
        return session.post("/api/v1/api-keys", body);
    }

    private Api.Response verify(String raw, @Nullable Object body) {
        Api key = Api.withKey(baseUrl(), raw);
        return body == null ? key.post(VERIFY) : key.post(VERIFY, body);
    }

    private static Map<String, Object> body(Object... pairs) {
        Map<String, Object> body = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            body.put((String) pairs[i], pairs[i + 1]);
        }
        return body;
    }

    @Test
    void shouldCarryEveryFieldThroughCreateListVerifyAndRoll() {
        Map<String, Object> metadata = body("plan", "gold", "seats", 5, "trial", false, "note", null);
        Api.Response created = create(body(
                "name",
                "shaped",
                "metadata",
                metadata,
                "external_id",
                "user_1234",
                "allowed_ips",
                List.of("127.0.0.1", "2001:DB8:0:0::/32", "192.0.2.0/24", "127.0.0.1")));

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        JsonNode key = created.json().get("key");
        assertThat(key.get("metadata"))
                .as("the properties as sent (their order is not kept)")
                .isEqualTo(Api.JSON.readTree("{\"plan\":\"gold\",\"seats\":5,\"trial\":false,\"note\":null}"));
        assertThat(key.get("external_id").asString()).isEqualTo("user_1234");
        assertThat(key.get("enabled").asBoolean()).isTrue();
        assertThat(key.get("allowed_ips").toString())
                .as("canonical, each once")
                .isEqualTo("[\"127.0.0.1\",\"2001:db8::/32\",\"192.0.2.0/24\"]");
        assertThat(session.keys().get(0)).isEqualTo(key);

        Api.Response verified = verify(created.json().get("api_key").asString(), body("client_ip", "192.0.2.77"));
        assertThat(verified.status()).as(verified.toString()).isEqualTo(200);
        assertThat(verified.json().get("metadata")).isEqualTo(key.get("metadata"));
        assertThat(verified.json().get("external_id").asString()).isEqualTo("user_1234");
        assertThat(verified.json().get("enabled").asBoolean()).isTrue();
        assertThat(verified.json().get("allowed_ips")).isEqualTo(key.get("allowed_ips"));

        Api.Response rolled = session.post("/api/v1/api-keys/" + key.get("id").asString() + "/roll", Map.of());
        assertThat(rolled.status()).as(rolled.toString()).isEqualTo(201);
        for (String field : List.of("metadata", "external_id", "enabled", "allowed_ips")) {
            assertThat(rolled.json().get("key").get(field)).as(field).isEqualTo(key.get(field));
        }
    }

    @Test
    void shouldGiveDefaultsToAKeyThatLeavesThemOut() {
        String raw = session.createKey("plain");
        JsonNode key = session.keys().get(0);

        assertThat(key.get("metadata").toString()).isEqualTo("{}");
        assertThat(key.get("external_id").isNull()).isTrue();
        assertThat(key.get("enabled").asBoolean()).isTrue();
        assertThat(key.get("allowed_ips").isNull()).isTrue();
        JsonNode verified = verify(raw, null).json();
        assertThat(verified.get("metadata").toString()).isEqualTo("{}");
        assertThat(verified.get("allowed_ips").isNull()).isTrue();
    }

    @Test
    void shouldKeepWhatAnUpdateLeavesOutAndClearWhatItSetsToNull() {
        String id = create(body(
                        "name",
                        "k",
                        "metadata",
                        Map.of("a", 1),
                        "external_id",
                        "ext",
                        "allowed_ips",
                        List.of("10.0.0.0/8")))
                .json()
                .get("key")
                .get("id")
                .asString();
        String path = "/api/v1/api-keys/" + id;

        JsonNode renamed = session.patch(path, Map.of("name", "renamed")).json();
        assertThat(renamed.get("metadata").toString()).isEqualTo("{\"a\":1}");
        assertThat(renamed.get("external_id").asString()).isEqualTo("ext");
        assertThat(renamed.get("allowed_ips").toString()).isEqualTo("[\"10.0.0.0/8\"]");

        JsonNode cleared = session.patch(path, body("external_id", null, "allowed_ips", null, "metadata", Map.of()))
                .json();
        assertThat(cleared.get("metadata").toString()).isEqualTo("{}");
        assertThat(cleared.get("external_id").isNull()).isTrue();
        assertThat(cleared.get("allowed_ips").isNull()).isTrue();
        assertThat(cleared.get("name").asString()).isEqualTo("renamed");
    }

    @Test
    void shouldListTheKeysOfAnExternalId() {
        create(body("name", "a", "external_id", "tenant:42"));
        create(body("name", "b", "external_id", "tenant:43"));
        create(body("name", "c", "external_id", "tenant:42"));
        session.createKey("none");

        JsonNode listed =
                session.get("/api/v1/api-keys?external_id=tenant:42").json().get("keys");
        assertThat(listed.findValuesAsString("name")).containsExactly("c", "a");
        assertThat(session.get("/api/v1/api-keys?external_id=nobody")
                        .json()
                        .get("keys")
                        .size())
                .isZero();
        assertThat(session.keys().size()).isEqualTo(4);
    }

    @Test
    void shouldRefuseEveryBadValueNamingItsFieldAndChangeNothing() {
        String id = create(body("name", "kept", "metadata", Map.of("a", 1)))
                .json()
                .get("key")
                .get("id")
                .asString();
        JsonNode before = session.keys();
        Map<String, Object> tooMany = new LinkedHashMap<>();
        for (int i = 0; i < 51; i++) {
            tooMany.put("k" + i, i);
        }
        List<Map<String, Object>> bad = List.of(
                body("metadata", tooMany),
                body("metadata", Map.of("big", "x".repeat(4089))),
                body("metadata", Map.of("nested", Map.of("a", 1))),
                body("metadata", List.of(1)),
                body("metadata", "text"),
                body("external_id", ""),
                body("external_id", "x".repeat(256)),
                body("external_id", "with space"),
                body("external_id", 5),
                body("enabled", "false"),
                body("enabled", null),
                body("allowed_ips", List.of()),
                body("allowed_ips", List.of("10.0.0.1/8")),
                body("allowed_ips", List.of("example.com")),
                body("allowed_ips", "10.0.0.0/8"));
        for (Map<String, Object> fields : bad) {
            String field = fields.keySet().iterator().next();
            Map<String, Object> createBody = new LinkedHashMap<>(fields);
            createBody.put("name", "refused");
            if (!(field.equals("enabled") && fields.get(field) == null)) {
                assertFieldErrors(create(createBody), field);
                assertFieldErrors(session.patch("/api/v1/api-keys/" + id, fields), field);
            }
        }
        List<String> hundredOne = new java.util.ArrayList<>();
        for (int i = 0; i <= 100; i++) {
            hundredOne.add("10.0." + i + ".0/24");
        }
        assertFieldErrors(session.patch("/api/v1/api-keys/" + id, body("allowed_ips", hundredOne)), "allowed_ips");
        assertThat(session.keys()).isEqualTo(before);
    }

    @Test
    void shouldRefuseADisabledKeyAtVerifyAndAsCredentialUntilEnabledAgain() {
        String raw = session.createKey("switch", "admin");
        String path = "/api/v1/api-keys/" + session.keyId("switch");

        JsonNode disabled = session.patch(path, Map.of("enabled", false)).json();
        assertThat(disabled.get("enabled").asBoolean()).isFalse();
        assertThat(session.keys().get(0).get("enabled").asBoolean()).isFalse();

        Api.Response refused = verify(raw, null);
        assertProblem(refused, 401, "api_key_disabled");
        assertThat(refused.header("WWW-Authenticate")).isEqualTo("Bearer error=\"invalid_token\"");
        assertProblem(Api.withKey(baseUrl(), raw).get("/api/v1/api-keys"), 401, "api_key_disabled");

        assertThat(session.patch(path, Map.of("enabled", true)).status()).isEqualTo(200);
        assertThat(verify(raw, null).status()).isEqualTo(200);
        assertThat(Api.withKey(baseUrl(), raw).get("/api/v1/api-keys").status()).isEqualTo(200);

        List<String> actions =
                session.get("/api/v1/audit-events").json().get("events").findValuesAsString("action");
        assertThat(actions.subList(0, 2)).containsExactly("api_key.enabled", "api_key.disabled");
    }

    @Test
    void shouldCreateAKeySwitchedOff() {
        String raw = create(body("name", "off", "enabled", false))
                .json()
                .get("api_key")
                .asString();

        assertProblem(verify(raw, null), 401, "api_key_disabled");
    }

    @Test
    void shouldAnswerTheKeyItselfBeforeItsSwitchAndTheSwitchBeforeTheAddress() {
        String raw = create(body("name", "ordered", "enabled", false, "allowed_ips", List.of("192.0.2.1")))
                .json()
                .get("api_key")
                .asString();
        String id = session.keyId("ordered");

        assertProblem(verify(raw, body("client_ip", "198.51.100.1")), 401, "api_key_disabled");
        session.patch("/api/v1/api-keys/" + id, Map.of("enabled", true));
        assertProblem(verify(raw, body("client_ip", "198.51.100.1")), 403, "ip_not_allowed");
        session.patch("/api/v1/api-keys/" + id, Map.of("enabled", false));
        session.delete("/api/v1/api-keys/" + id);
        assertProblem(verify(raw, body("client_ip", "198.51.100.1")), 401, "api_key_revoked");
    }

    @Test
    void shouldAcceptOnlyAClientInsideTheAllowedAddresses() {
        String raw = create(body("name", "fenced", "allowed_ips", List.of("192.0.2.0/24", "2001:db8::/32")))
                .json()
                .get("api_key")
                .asString();

        assertThat(verify(raw, body("client_ip", "192.0.2.200")).status()).isEqualTo(200);
        assertThat(verify(raw, body("client_ip", "2001:db8:1::9")).status()).isEqualTo(200);
        assertProblem(verify(raw, body("client_ip", "192.0.3.1")), 403, "ip_not_allowed");
        assertProblem(verify(raw, body("client_ip", "2001:db9::1")), 403, "ip_not_allowed");
        assertProblem(verify(raw, Map.of()), 403, "ip_not_allowed");
        assertProblem(verify(raw, null), 403, "ip_not_allowed");
    }

    @Test
    void shouldCheckVerifysBody() {
        String raw = session.createKey("anywhere");

        assertThat(verify(raw, body("client_ip", "203.0.113.7", "cost", 0)).status())
                .isEqualTo(200);
        assertThat(verify(raw, body("client_ip", "::1", "cost", 1000)).status()).isEqualTo(200);
        assertFieldErrors(verify(raw, body("client_ip", "not-an-ip")), "client_ip");
        assertFieldErrors(verify(raw, body("client_ip", "example.com")), "client_ip");
        assertFieldErrors(verify(raw, body("client_ip", "192.0.2.0/24")), "client_ip");
        assertFieldErrors(verify(raw, body("cost", -1)), "cost");
        assertFieldErrors(verify(raw, body("cost", 1001)), "cost");
        assertFieldErrors(verify(raw, body("cost", 1.5)), "cost");
        assertFieldErrors(verify(raw, body("client_ip", 5)), "client_ip");
        assertFieldErrors(verify(raw, body("clientip", "192.0.2.1")), "clientip");
        assertProblem(Api.withKey(baseUrl(), raw).send("POST", VERIFY, "{", "application/json"), 400, "malformed_json");
    }

    @Test
    void shouldRefuseAKeyUsedAsCredentialFromOutsideItsAddresses() {
        String fenced = create(
                        body("name", "fenced", "permissions", List.of("admin"), "allowed_ips", List.of("192.0.2.0/24")))
                .json()
                .get("api_key")
                .asString();
        String local = create(body(
                        "name", "local", "permissions", List.of("admin"), "allowed_ips", List.of("127.0.0.1", "::1")))
                .json()
                .get("api_key")
                .asString();

        assertProblem(Api.withKey(baseUrl(), fenced).get("/api/v1/api-keys"), 403, "ip_not_allowed");
        // X-Forwarded-For counts from loopback (the proxies the abuse limits trust): the client is 192.0.2.9
        Api.Response proxied = Api.withKey(baseUrl(), fenced)
                .sendRaw(
                        "GET",
                        "/api/v1/api-keys",
                        HttpRequest.BodyPublishers.noBody(),
                        Map.of("X-Forwarded-For", "192.0.2.9"));
        assertThat(proxied.status()).as(proxied.toString()).isEqualTo(200);
        assertThat(Api.withKey(baseUrl(), local).get("/api/v1/api-keys").status())
                .isEqualTo(200);
    }

    @Test
    void shouldRefuseANarrowedAddressListAtOnceAndAcceptAWiderOne() {
        String raw = create(body("name", "moving", "allowed_ips", List.of("192.0.2.0/24")))
                .json()
                .get("api_key")
                .asString();
        String path = "/api/v1/api-keys/" + session.keyId("moving");
        assertThat(verify(raw, body("client_ip", "192.0.2.9")).status()).isEqualTo(200);

        session.patch(path, Map.of("allowed_ips", List.of("192.0.2.128/25")));
        assertProblem(verify(raw, body("client_ip", "192.0.2.9")), 403, "ip_not_allowed");
        session.patch(path, Map.of("allowed_ips", List.of("192.0.0.0/16")));
        assertThat(verify(raw, body("client_ip", "192.0.2.9")).status()).isEqualTo(200);
    }

    @Test
    void shouldAuditFieldChangesWithoutTheSwitch() {
        String id = session.newKeyId("audited");
        session.patch("/api/v1/api-keys/" + id, body("external_id", "e-1", "metadata", Map.of("a", "b")));

        JsonNode event =
                session.get("/api/v1/audit-events").json().get("events").get(0);
        assertThat(event.get("action").asString()).isEqualTo("api_key.updated");
        JsonNode changes = event.get("details").get("changes");
        assertThat(changes.get("external_id").get("from").isNull()).isTrue();
        assertThat(changes.get("external_id").get("to").asString()).isEqualTo("e-1");
        assertThat(changes.get("metadata").get("to").toString()).isEqualTo("{\"a\":\"b\"}");
        assertThat(Instant.parse(event.get("occurred_at").asString()))
                .isAfter(Instant.now().minus(1, ChronoUnit.MINUTES));
    }
}
