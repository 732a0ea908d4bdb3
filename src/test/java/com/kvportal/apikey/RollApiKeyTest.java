package com.kvportal.apikey;

import static com.kvportal.support.Problems.assertFieldErrors;
import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class RollApiKeyTest extends IntegrationTest {

    /** Rolls the project's key of this name, keeping its predecessor alive for the grace; the roll succeeds. */
    private static JsonNode roll(Api session, String name, int graceSeconds) {
        Api.Response rolled = session.post(
                "/api/v1/api-keys/" + session.keyId(name) + "/roll", Map.of("grace_seconds", graceSeconds));
        assertThat(rolled.status()).as(rolled.toString()).isEqualTo(201);
        return rolled.json();
    }

    @Test
    void shouldAnswer201WithANewKeyOfTheSameNameAndPermissionsAndTheOldOneAliveForADay() {
        Api session = signedUp();
        String old = session.createKey("billing-worker", "read", "admin");
        String oldId = session.keyId("billing-worker");

        Api.Response response = session.post("/api/v1/api-keys/" + oldId + "/roll");

        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        assertThat(response.header("Cache-Control")).isEqualTo("no-store");
        JsonNode body = response.json();
        String fresh = body.get("api_key").asString();
        assertThat(fresh).matches("kv_[0-9A-Za-z]{32}").isNotEqualTo(old);
        assertThat(body.get("hint").asString()).contains("only once");
        assertThat(body.get("key").get("name").asString()).isEqualTo("billing-worker");
        assertThat(body.get("key").get("permissions").toString()).isEqualTo("[\"read\",\"admin\"]");
        assertThat(Instant.parse(body.get("key").get("expires_at").asString()))
                .isCloseTo(Instant.now().plus(90, ChronoUnit.DAYS), within(1, ChronoUnit.MINUTES));
        assertThat(body.get("previous").get("id").asString()).isEqualTo(oldId);
        Instant previousExpiry =
                Instant.parse(body.get("previous").get("expires_at").asString());
        assertThat(previousExpiry).isCloseTo(Instant.now().plus(1, ChronoUnit.DAYS), within(1, ChronoUnit.MINUTES));

        assertThat(Api.withKey(baseUrl(), old).post("/api/v1/api-keys/verify").status())
                .isEqualTo(200);
        assertThat(Api.withKey(baseUrl(), fresh).post("/api/v1/api-keys/verify").status())
                .isEqualTo(200);
        JsonNode keys = session.keys();
        assertThat(keys.size()).isEqualTo(2);
        for (JsonNode key : keys) {
            if (key.get("id").asString().equals(oldId)) {
                assertThat(Instant.parse(key.get("expires_at").asString())).isEqualTo(previousExpiry);
            }
        }
    }

    @Test
    void shouldLetBothKeysVerifyUntilAShortGraceEndsAndThenRefuseThePredecessor() {
        Api session = signedUp();
        String old = session.createKey("rotating");
        JsonNode rolled = roll(session, "rotating", 2);
        String fresh = rolled.get("api_key").asString();
        Instant graceEnd =
                Instant.parse(rolled.get("previous").get("expires_at").asString());

        assertThat(Api.withKey(baseUrl(), old).post("/api/v1/api-keys/verify").status())
                .isEqualTo(200);
        assertThat(Api.withKey(baseUrl(), fresh).post("/api/v1/api-keys/verify").status())
                .isEqualTo(200);

        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> Api.withKey(baseUrl(), old)
                .post("/api/v1/api-keys/verify")
                .code()
                .equals("api_key_expired"));
        assertThat(Instant.now()).isAfterOrEqualTo(graceEnd);
        assertThat(Api.withKey(baseUrl(), fresh).post("/api/v1/api-keys/verify").status())
                .isEqualTo(200);
    }

    @Test
    void shouldRevokeThePredecessorAtOnceForAGraceOfZero() {
        Api session = signedUp();
        String old = session.createKey("now");
        JsonNode rolled = roll(session, "now", 0);

        assertProblem(Api.withKey(baseUrl(), old).post("/api/v1/api-keys/verify"), 401, "api_key_revoked");
        assertThat(session.keys().size()).isEqualTo(1);
        assertThat(Instant.parse(rolled.get("previous").get("expires_at").asString()))
                .isCloseTo(Instant.now(), within(1, ChronoUnit.MINUTES));
    }

    @Test
    void shouldNeverLengthenThePredecessorsLife() {
        Api session = signedUp();
        Instant soon = Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
        session.post("/api/v1/api-keys", Map.of("name", "short", "expires_at", soon.toString()));
        Instant later = Instant.now().plus(30, ChronoUnit.DAYS).truncatedTo(ChronoUnit.SECONDS);

        Api.Response rolled = session.post(
                "/api/v1/api-keys/" + session.keyId("short") + "/roll",
                Map.of("grace_seconds", 604_800, "expires_at", later.toString()));

        assertThat(rolled.status()).isEqualTo(201);
        assertThat(rolled.json().get("previous").get("expires_at").asString()).isEqualTo(soon.toString());
        assertThat(rolled.json().get("key").get("expires_at").asString()).isEqualTo(later.toString());
    }

    @Test
    void shouldCheckGraceAndExpiry() {
        Api session = signedUp();
        session.createKey("checked");
        String path = "/api/v1/api-keys/" + session.keyId("checked") + "/roll";

        assertFieldErrors(session.post(path, Map.of("grace_seconds", -1)), "grace_seconds");
        assertFieldErrors(session.post(path, Map.of("grace_seconds", 604_801)), "grace_seconds");
        assertFieldErrors(session.post(path, Map.of("expires_at", "2020-01-01T00:00:00Z")), "expires_at");
        assertFieldErrors(
                session.post(path, Map.of("grace_seconds", 10_000_000, "expires_at", "soon")),
                "grace_seconds",
                "expires_at");
        assertFieldErrors(session.post(path, Map.of("grace_seconds", "lots")), "grace_seconds");
        assertProblem(session.send("POST", path, "{", "application/json"), 400, "malformed_json");
        assertThat(session.keys().size()).isEqualTo(1);
    }

    @Test
    void shouldAnswer409ForARevokedKeyAnd404ForAnUnknownOrForeignOne() {
        Api alice = signedUp();
        String revoked = alice.newKeyId("revoked");
        alice.delete("/api/v1/api-keys/" + revoked);
        String aliceKey = alice.newKeyId("alice");
        Api bob = signedUp();

        assertProblem(alice.post("/api/v1/api-keys/" + revoked + "/roll"), 409, "api_key_revoked");
        assertProblem(alice.post("/api/v1/api-keys/" + UUID.randomUUID() + "/roll"), 404, "api_key_not_found");
        assertProblem(bob.post("/api/v1/api-keys/" + aliceKey + "/roll"), 404, "api_key_not_found");
        assertProblem(alice.post("/api/v1/api-keys/nope/roll"), 400, "validation_failed");
        assertProblem(api().post("/api/v1/api-keys/" + aliceKey + "/roll"), 401, "unauthenticated");
        assertProblem(alice.withoutCsrfEcho().post("/api/v1/api-keys/" + aliceKey + "/roll"), 403, "csrf_failed");
        assertProblem(
                Api.withKey(baseUrl(), alice.withCsrfEcho().createKey("writer"))
                        .post("/api/v1/api-keys/" + aliceKey + "/roll"),
                403,
                "insufficient_permissions");
        assertThat(alice.keys().size()).isEqualTo(2);
    }

    @Test
    void shouldCountTheNewKeyTowardTheLimit() {
        Api session = api();
        Api.Account account = session.signup();
        String id = session.newKeyId("the thousandth");
        jdbc.sql(
                        """
                        insert into api_keys (id, project_id, organization_id, customer_id, name, digest, permissions,
                            expires_at)
                        select gen_random_uuid(), ?, ?, ?, 'filler ' || n, sha256(gen_random_uuid()::text::bytea),
                            '{read}', now() + interval '1 day'
                        from generate_series(1, 999) n""")
                .params(account.projectId(), account.organizationId(), account.customerId())
                .update();

        assertProblem(session.post("/api/v1/api-keys/" + id + "/roll"), 409, "key_limit_reached");
        Api.Response replacing = session.post("/api/v1/api-keys/" + id + "/roll", Map.of("grace_seconds", 0));
        assertThat(replacing.status()).as(replacing.toString()).isEqualTo(201);
        assertThat(count(
                        "select count(*) from api_keys where project_id = ? and revoked_at is null",
                        account.projectId()))
                .isEqualTo(1000);
    }
}
