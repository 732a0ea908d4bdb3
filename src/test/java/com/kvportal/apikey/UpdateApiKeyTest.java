package com.kvportal.apikey;

import static com.kvportal.support.Problems.assertFieldErrors;
import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class UpdateApiKeyTest extends IntegrationTest {

    @Test
    void shouldRenameAndChangePermissionsAndExpiryAndAnswerTheListItem() {
        Api session = signedUp();
        String raw = session.createKey("billing-worker", "read");
        String id = session.keyId("billing-worker");
        Instant expiry = Instant.now().plus(10, ChronoUnit.DAYS).truncatedTo(ChronoUnit.SECONDS);

        Api.Response response = session.patch(
                "/api/v1/api-keys/" + id,
                Map.of(
                        "name",
                        "  billing worker v2 ",
                        "permissions",
                        List.of("read", "write", "read"),
                        "expires_at",
                        expiry.toString()));

        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        JsonNode key = response.json();
        assertThat(key.get("id").asString()).isEqualTo(id);
        assertThat(key.get("name").asString()).isEqualTo("billing worker v2");
        assertThat(key.get("permissions").toString()).isEqualTo("[\"read\",\"write\"]");
        assertThat(key.get("expires_at").asString()).isEqualTo(expiry.toString());
        assertThat(key.has("digest")).isFalse();
        assertThat(Api.withKey(baseUrl(), raw)
                        .post("/api/v1/api-keys/verify")
                        .json()
                        .get("permissions")
                        .toString())
                .isEqualTo("[\"read\",\"write\"]");
        assertThat(session.keys().get(0).get("name").asString()).isEqualTo("billing worker v2");
    }

    @Test
    void shouldKeepWhatIsLeftOut() {
        Api session = signedUp();
        String id = session.newKeyId("kept", "read", "admin");
        JsonNode before = session.keys().get(0);

        Api.Response renamed = session.patch("/api/v1/api-keys/" + id, Map.of("name", "renamed"));
        Api.Response unchanged = session.patch("/api/v1/api-keys/" + id, Map.of());

        assertThat(renamed.status()).isEqualTo(200);
        assertThat(renamed.json().get("permissions")).isEqualTo(before.get("permissions"));
        assertThat(renamed.json().get("expires_at")).isEqualTo(before.get("expires_at"));
        assertThat(unchanged.status()).isEqualTo(200);
        assertThat(unchanged.json().get("name").asString()).isEqualTo("renamed");
    }

    @Test
    void shouldRefuseANarrowedKeyAtOnce() {
        Api session = signedUp();
        String raw = session.createKey("automation", "admin", "write");
        String id = session.keyId("automation");
        Api key = Api.withKey(baseUrl(), raw);
        assertThat(key.get("/api/v1/api-keys").status()).isEqualTo(200);

        assertThat(session.patch("/api/v1/api-keys/" + id, Map.of("permissions", List.of("write")))
                        .status())
                .isEqualTo(200);

        assertProblem(key.get("/api/v1/api-keys"), 403, "insufficient_permissions");
        assertThat(key.post("/api/v1/api-keys/verify").json().get("permissions").toString())
                .isEqualTo("[\"write\"]");
    }

    @Test
    void shouldRefuseAKeyOnceItsEarlierExpiryHasPassed() {
        Api session = signedUp();
        String raw = session.createKey("short-lived");
        String id = session.keyId("short-lived");
        Instant soon =
                Instant.now().plusSeconds(2).truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);

        assertThat(session.patch("/api/v1/api-keys/" + id, Map.of("expires_at", soon.toString()))
                        .status())
                .isEqualTo(200);

        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(10))
                .until(() -> Api.withKey(baseUrl(), raw)
                        .post("/api/v1/api-keys/verify")
                        .code()
                        .equals("api_key_expired"));
        assertThat(Instant.now()).isAfterOrEqualTo(soon);
    }

    @Test
    void shouldCheckEveryFieldAsCreateDoes() {
        Api session = signedUp();
        session.createKey("checked");
        String path = "/api/v1/api-keys/" + session.keyId("checked");

        assertFieldErrors(session.patch(path, Map.of("name", "   ")), "name");
        assertFieldErrors(session.patch(path, Map.of("name", "x".repeat(101))), "name");
        assertFieldErrors(session.patch(path, Map.of("name", "tab\there")), "name");
        assertFieldErrors(session.patch(path, Map.of("permissions", List.of())), "permissions");
        assertFieldErrors(session.patch(path, Map.of("permissions", List.of("root"))), "permissions");
        assertFieldErrors(session.patch(path, Map.of("expires_at", "2020-01-01T00:00:00Z")), "expires_at");
        assertFieldErrors(
                session.patch(
                        path,
                        Map.of(
                                "expires_at",
                                Instant.now().plus(400, ChronoUnit.DAYS).toString())),
                "expires_at");
        assertFieldErrors(session.patch(path, Map.of("expires_at", "tomorrow")), "expires_at");
        assertFieldErrors(
                session.patch(path, Map.of("name", "", "permissions", List.of("nope"))), "name", "permissions");
        assertFieldErrors(session.patch(path, Map.of("name", 5)), "name");
        assertProblem(session.send("PATCH", path, "{", "application/json"), 400, "malformed_json");
        assertThat(session.send("PATCH", path, "name=x", "text/plain").status()).isEqualTo(415);
        assertThat(session.keys().get(0).get("name").asString()).isEqualTo("checked");
    }

    @Test
    void shouldAnswer404ForAnUnknownAForeignOrARevokedKeyAnd400ForAMalformedId() {
        Api alice = signedUp();
        String aliceKey = alice.newKeyId("alice");
        String gone = alice.newKeyId("gone");
        alice.delete("/api/v1/api-keys/" + gone);
        Api bob = signedUp();
        Map<String, Object> rename = Map.of("name", "mine now");

        assertProblem(alice.patch("/api/v1/api-keys/" + UUID.randomUUID(), rename), 404, "api_key_not_found");
        assertProblem(alice.patch("/api/v1/api-keys/" + gone, rename), 404, "api_key_not_found");
        assertProblem(bob.patch("/api/v1/api-keys/" + aliceKey, rename), 404, "api_key_not_found");
        assertProblem(alice.patch("/api/v1/api-keys/not-an-id", rename), 400, "validation_failed");
        assertThat(alice.keyId("alice")).isEqualTo(aliceKey);
    }

    @Test
    void shouldNeedACredentialTheCsrfEchoAndAnAdminKey() {
        Api session = signedUp();
        String writer = session.createKey("writer", "write");
        String path = "/api/v1/api-keys/" + session.keyId("writer");
        Map<String, Object> broaden = Map.of("permissions", List.of("admin"));

        assertProblem(api().patch(path, broaden), 401, "unauthenticated");
        assertProblem(session.withoutCsrfEcho().patch(path, broaden), 403, "csrf_failed");
        assertProblem(Api.withKey(baseUrl(), writer).patch(path, broaden), 403, "insufficient_permissions");
        String admin = session.withCsrfEcho().createKey("admin", "admin");
        assertThat(Api.withKey(baseUrl(), admin).patch(path, broaden).status()).isEqualTo(200);
    }
}
