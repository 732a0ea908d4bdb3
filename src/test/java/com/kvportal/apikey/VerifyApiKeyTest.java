package com.kvportal.apikey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

class VerifyApiKeyTest extends IntegrationTest {

    @Test
    void shouldReturnTheCustomerProjectOrganizationAndPermissions() {
        Api session = api();
        Api.Account account = session.signup();
        String raw = session.createKey("service", "read", "write");

        Api.Response response = Api.withKey(baseUrl(), raw).post("/api/v1/api-keys/verify");

        assertThat(response.status()).isEqualTo(200);
        JsonNode body = response.json();
        assertThat(body.get("customer_id").asString())
                .isEqualTo(account.customerId().toString());
        assertThat(body.get("project_id").asString())
                .isEqualTo(account.projectId().toString());
        assertThat(body.get("organization_id").asString())
                .isEqualTo(account.organizationId().toString());
        assertThat(body.get("permissions").toString()).isEqualTo("[\"read\",\"write\"]");
    }

    @Test
    void shouldShowLastUsedAtInTheListWithinTwoSeconds() {
        Api session = signedUp();
        String raw = session.createKey("service");
        assertThat(session.keys().get(0).get("last_used_at").isNull()).isTrue();

        Api.withKey(baseUrl(), raw).post("/api/v1/api-keys/verify");

        await().atMost(Duration.ofSeconds(2))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> !session.keys().get(0).get("last_used_at").isNull());
    }

    @Test
    void shouldReturn401InvalidApiKeyWithoutAHeader() {
        assertRefused(api().post("/api/v1/api-keys/verify"), "invalid_api_key");
    }

    @Test
    void shouldReturn401InvalidApiKeyNot403WhenASignedInBrowserCallsVerifyWithoutAKey() {
        // verify reads only the Authorization header, so the session's CSRF rule has nothing to protect there
        Api session = signedUp();
        String raw = session.createKey("service");

        assertRefused(session.withoutCsrfEcho().post("/api/v1/api-keys/verify"), "invalid_api_key");
        Api.Response withKey = session.withoutCsrfEcho()
                .sendRaw(
                        "POST",
                        "/api/v1/api-keys/verify",
                        java.net.http.HttpRequest.BodyPublishers.noBody(),
                        java.util.Map.of("Authorization", "Bearer " + raw));
        assertThat(withKey.status()).as(withKey.toString()).isEqualTo(200);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "kv_AAAAAAAAAAAAAAAAAAAAAAAAAA36zwQ8", // bad checksum
                "kv_short",
                "sk_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
                "' or 1=1 --"
            })
    void shouldReturn401InvalidApiKeyForMalformedKeys(String key) {
        assertRefused(Api.withKey(baseUrl(), key).post("/api/v1/api-keys/verify"), "invalid_api_key");
    }

    @Test
    void shouldReturn401InvalidApiKeyForAWellFormedUnknownKey() {
        String unknown = ApiKeyFormat.generate().value();
        assertRefused(Api.withKey(baseUrl(), unknown).post("/api/v1/api-keys/verify"), "invalid_api_key");
    }

    @Test
    void shouldReturn401InvalidApiKeyForANonBearerScheme() {
        Api.Response response = api().send("POST", "/api/v1/api-keys/verify", null, null);
        assertRefused(response, "invalid_api_key");
    }

    @Test
    void shouldReturn401ApiKeyRevokedForARevokedKey() {
        Api session = signedUp();
        String raw = session.createKey("soon gone");
        String id = session.keys().get(0).get("id").asString();
        assertThat(session.delete("/api/v1/api-keys/" + id).status()).isEqualTo(204);

        assertRefused(Api.withKey(baseUrl(), raw).post("/api/v1/api-keys/verify"), "api_key_revoked");
    }

    @Test
    void shouldReturn401ApiKeyExpiredForAnExpiredKey() {
        Api session = api();
        Api.Account account = session.signup();
        String raw = session.createKey("short lived");
        jdbc.sql("update api_keys set expires_at = now() - interval '1 second' where project_id = ?")
                .param(account.projectId())
                .update();

        assertRefused(Api.withKey(baseUrl(), raw).post("/api/v1/api-keys/verify"), "api_key_expired");
    }

    private static void assertRefused(Api.Response response, String code) {
        assertThat(response.status()).as(response.toString()).isEqualTo(401);
        assertThat(response.code()).isEqualTo(code);
        assertThat(response.header("WWW-Authenticate")).isEqualTo("Bearer error=\"invalid_token\"");
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
    }
}
