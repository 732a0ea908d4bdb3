package com.kvportal.apikey;

import static com.kvportal.support.Problems.assertFieldErrors;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.SignedInTest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class CreateApiKeyTest extends SignedInTest {

    @Test
    void shouldRefuseAMisspeltFieldNamingItAndWhatToSendInsteadAndCreateNothing() {
        Api.Response response = session.post("/api/v1/api-keys", Map.of("name", "p", "scopes", List.of("read")));

        assertFieldErrors(response, "scopes");
        assertThat(response.json().get("errors").get(0).get("message").asString())
                .contains("name")
                .contains("permissions")
                .contains("expires_at");
        assertThat(session.keys()).isEmpty();
    }

    @Test
    void shouldReturn201WithTheRawKeyOnceAndTheListItem() {
        Api.Response response = session.post("/api/v1/api-keys", Map.of("name", "ci deploy"));

        assertThat(response.status()).isEqualTo(201);
        JsonNode body = response.json();
        assertThat(body.get("api_key").asString()).matches("kv_[0-9A-Za-z]{32}");
        assertThat(body.get("hint").asString()).containsIgnoringCase("store");
        JsonNode key = body.get("key");
        assertThat(key.get("name").asString()).isEqualTo("ci deploy");
        assertThat(key.get("project_id").asString())
                .isEqualTo(account.projectId().toString());
        assertThat(key.get("permissions").toString()).isEqualTo("[\"write\"]");
        assertThat(key.get("last_used_at").isNull()).isTrue();
        assertThat(key.has("api_key")).isFalse();
        // whole seconds, UTC, with a Z, as docs/api.md states them
        assertThat(key.get("expires_at").asString()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
        assertThat(key.get("created_at").asString()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
        Instant expiresAt = Instant.parse(key.get("expires_at").asString());
        assertThat(expiresAt).isCloseTo(Instant.now().plus(90, ChronoUnit.DAYS), within(Duration.ofMinutes(1)));
        assertThat(response.header("Location"))
                .isEqualTo("/api/v1/api-keys/" + key.get("id").asString());
        assertThat(response.header("Cache-Control")).contains("no-store");
    }

    @Test
    void shouldTrimTheNameDropDuplicatePermissionsAndKeepTheGivenExpiry() {
        String expiry = Instant.now()
                .plus(30, ChronoUnit.DAYS)
                .truncatedTo(ChronoUnit.SECONDS)
                .toString();
        Api.Response response = session.post(
                "/api/v1/api-keys",
                Map.of("name", "  reader  ", "permissions", List.of("read", "admin", "read"), "expires_at", expiry));

        assertThat(response.status()).isEqualTo(201);
        JsonNode key = response.json().get("key");
        assertThat(key.get("name").asString()).isEqualTo("reader");
        assertThat(key.get("permissions").toString()).isEqualTo("[\"read\",\"admin\"]");
        assertThat(key.get("expires_at").asString()).isEqualTo(expiry);
    }

    @Test
    void shouldStoreHtmlAndSqlInNamesLiterally() {
        String name = "<img src=x onerror=alert(1)>'; drop table api_keys; --";
        Api.Response response = session.post("/api/v1/api-keys", Map.of("name", name));

        assertThat(response.status()).isEqualTo(201);
        assertThat(session.keys().get(0).get("name").asString()).isEqualTo(name);
    }

    @Test
    void shouldReturn400ForEachInvalidField() {
        assertInvalid(Map.of(), "name");
        assertInvalid(Map.of("name", "   "), "name");
        assertInvalid(Map.of("name", "x".repeat(101)), "name");
        assertInvalid(Map.of("name", "tab\there"), "name");
        assertInvalid(Map.of("name", "ok", "permissions", List.of("owner")), "permissions");
        assertInvalid(Map.of("name", "ok", "permissions", List.of()), "permissions");
        assertInvalid(Map.of("name", "ok", "expires_at", "tomorrow"), "expires_at");
        assertInvalid(
                Map.of(
                        "name",
                        "ok",
                        "expires_at",
                        Instant.now().minusSeconds(60).toString()),
                "expires_at");
        assertInvalid(
                Map.of(
                        "name",
                        "ok",
                        "expires_at",
                        Instant.now().plus(366, ChronoUnit.DAYS).toString()),
                "expires_at");
        assertInvalid(Map.of("name", Map.of("nested", true)), "name");
        assertInvalid(Map.of("name", 5), "name");
        assertInvalid(Map.of("name", true), "name");
        assertInvalid(Map.of("name", "ok", "permissions", List.of(1)), "permissions[0]");
        assertInvalid(Map.of("name", "ok", "expires_at", 1893456000), "expires_at");
        assertThat(session.keys().size()).isZero();
    }

    @Test
    void shouldAcceptANameOfExactly100Characters() {
        assertThat(session.post("/api/v1/api-keys", Map.of("name", "x".repeat(100)))
                        .status())
                .isEqualTo(201);
    }

    @Test
    void shouldReturn400ForMalformedJson() {
        Api.Response response = session.send("POST", "/api/v1/api-keys", "{\"name\":", "application/json");
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.code()).isEqualTo("malformed_json");
    }

    @Test
    void shouldReturn415ForANonJsonBody() {
        Api.Response response = session.send("POST", "/api/v1/api-keys", "name=x", "application/x-www-form-urlencoded");
        assertThat(response.status()).isEqualTo(415);
        assertThat(response.code()).isEqualTo("unsupported_media_type");
    }

    @Test
    void shouldReturn413ForABodyOver64KiB() {
        String body = "{\"name\":\"" + "x".repeat(70_000) + "\"}";
        Api.Response response = session.send("POST", "/api/v1/api-keys", body, "application/json");
        assertThat(response.status()).isEqualTo(413);
        assertThat(response.code()).isEqualTo("payload_too_large");
    }

    @Test
    void shouldReturn401WithoutCredential() {
        Api.Response response = api().post("/api/v1/api-keys", Map.of("name", "x"));
        assertThat(response.status()).isEqualTo(401);
        assertThat(response.code()).isEqualTo("unauthenticated");
        assertThat(response.header("WWW-Authenticate")).startsWith("Bearer");
    }

    @Test
    void shouldReturn403ForAKeyWithoutAdmin() {
        Api writer = Api.withKey(baseUrl(), session.createKey("writer", "read", "write"));
        Api.Response response = writer.post("/api/v1/api-keys", Map.of("name", "x"));
        assertThat(response.status()).isEqualTo(403);
        assertThat(response.code()).isEqualTo("insufficient_permissions");
    }

    @Test
    void shouldLetAnAdminKeyCreateKeysInItsProject() {
        Api admin = Api.withKey(baseUrl(), session.createKey("admin", "admin"));
        Api.Response response = admin.post("/api/v1/api-keys", Map.of("name", "made by automation"));
        assertThat(response.status()).isEqualTo(201);
        assertThat(response.json().get("key").get("project_id").asString())
                .isEqualTo(account.projectId().toString());
    }

    @Test
    void shouldReturn403WhenTheSessionOmitsTheCsrfHeader() {
        Api.Response response = session.withoutCsrfEcho().post("/api/v1/api-keys", Map.of("name", "x"));
        assertThat(response.status()).isEqualTo(403);
        assertThat(response.code()).isEqualTo("csrf_failed");
    }

    @Test
    void shouldReturn409BeyondOneThousandUnrevokedKeys() {
        // 999 keys written directly (creating them through HTTP would only slow the test down)
        jdbc.sql(
                        """
                        insert into api_keys (id, project_id, organization_id, customer_id, name, digest, permissions, expires_at)
                        select gen_random_uuid(), ?, ?, ?, 'bulk ' || n, sha256(('bulk' || n || ?)::bytea), '{write}',
                               now() + interval '1 day'
                        from generate_series(1, 999) n""")
                .params(
                        account.projectId(),
                        account.organizationId(),
                        account.customerId(),
                        UUID.randomUUID().toString())
                .update();
        assertThat(session.post("/api/v1/api-keys", Map.of("name", "the 1000th"))
                        .status())
                .isEqualTo(201);

        Api.Response refused = session.post("/api/v1/api-keys", Map.of("name", "the 1001st"));
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.code()).isEqualTo("key_limit_reached");

        String id = session.keys().get(0).get("id").asString();
        assertThat(session.delete("/api/v1/api-keys/" + id).status()).isEqualTo(204);
        assertThat(session.post("/api/v1/api-keys", Map.of("name", "after a revoke"))
                        .status())
                .isEqualTo(201);
    }

    private void assertInvalid(Map<String, ?> body, String field) {
        Api.Response response = session.post("/api/v1/api-keys", body);
        assertThat(response.status()).as(response.toString()).isEqualTo(400);
        assertThat(response.code()).isEqualTo("validation_failed");
        assertThat(response.json().get("errors").findValuesAsString("field")).contains(field);
    }

    private static org.assertj.core.data.TemporalUnitOffset within(Duration duration) {
        return new org.assertj.core.data.TemporalUnitWithinOffset(duration.toSeconds(), ChronoUnit.SECONDS);
    }
}
