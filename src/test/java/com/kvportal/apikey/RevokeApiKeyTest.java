package com.kvportal.apikey;

import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RevokeApiKeyTest extends IntegrationTest {

    @Test
    void shouldReturn204AndRefuseTheKeyFromThenOnAsVerifyAndAsCredential() {
        Api session = signedUp();
        String raw = session.createKey("admin automation", "admin");
        Api key = Api.withKey(baseUrl(), raw);
        assertThat(key.get("/api/v1/api-keys").status()).isEqualTo(200);

        assertThat(session.delete("/api/v1/api-keys/" + session.keyId("admin automation"))
                        .status())
                .isEqualTo(204);

        assertThat(key.post("/api/v1/api-keys/verify").code()).isEqualTo("api_key_revoked");
        Api.Response asCredential = key.get("/api/v1/api-keys");
        assertProblem(asCredential, 401, "unauthenticated");
        assertThat(session.keys().size()).isZero();
    }

    @Test
    void shouldReturn204AgainForAnAlreadyRevokedKey() {
        Api session = signedUp();
        String id = session.newKeyId("twice");
        assertThat(session.delete("/api/v1/api-keys/" + id).status()).isEqualTo(204);
        assertThat(session.delete("/api/v1/api-keys/" + id).status()).isEqualTo(204);
    }

    @Test
    void shouldReturn404ForAnUnknownId() {
        Api session = signedUp();
        Api.Response response = session.delete("/api/v1/api-keys/" + UUID.randomUUID());
        assertProblem(response, 404, "api_key_not_found");
    }

    @Test
    void shouldReturn404ForAnotherOrganizationsKeyAndLeaveItUsable() {
        Api alice = signedUp();
        String aliceKey = alice.createKey("alice");
        String aliceKeyId = alice.keyId("alice");
        Api bob = signedUp();
        Api bobAdmin = Api.withKey(baseUrl(), bob.createKey("bob", "admin"));

        Api.Response bySession = bob.delete("/api/v1/api-keys/" + aliceKeyId);
        Api.Response byKey = bobAdmin.delete("/api/v1/api-keys/" + aliceKeyId);

        assertProblem(bySession, 404, "api_key_not_found");
        assertProblem(byKey, 404, "api_key_not_found");
        assertThat(Api.withKey(baseUrl(), aliceKey)
                        .post("/api/v1/api-keys/verify")
                        .status())
                .isEqualTo(200);
    }

    @Test
    void shouldReturn404ForAKeyOfAnotherProjectOfTheSameOrganization() {
        Api session = signedUp();
        String id = session.newKeyId("in default project");
        String other = session.createProject("other").toString();
        session.put("/api/v1/session/project", java.util.Map.of("project_id", other));

        assertThat(session.delete("/api/v1/api-keys/" + id).code()).isEqualTo("api_key_not_found");
    }

    @Test
    void shouldReturn400ForAMalformedId() {
        Api session = signedUp();
        Api.Response response = session.delete("/api/v1/api-keys/not-a-uuid");
        assertProblem(response, 400, "validation_failed");
    }

    @Test
    void shouldLetAnyKeyRevokeItselfButNoOtherKeyWithoutAdmin() {
        Api session = signedUp();
        Api writer = Api.withKey(baseUrl(), session.createKey("writer"));
        session.createKey("other");

        Api.Response other = writer.delete("/api/v1/api-keys/" + session.keyId("other"));
        assertProblem(other, 403, "insufficient_permissions");

        assertThat(writer.delete("/api/v1/api-keys/" + session.keyId("writer")).status())
                .isEqualTo(204);
        assertThat(writer.post("/api/v1/api-keys/verify").code()).isEqualTo("api_key_revoked");
    }

    @Test
    void shouldReturn401WithoutCredentialAnd403WithoutCsrfHeader() {
        Api session = signedUp();
        String id = session.newKeyId("kept");

        Api.Response anonymous = api().delete("/api/v1/api-keys/" + id);
        assertProblem(anonymous, 401, "unauthenticated");

        Api.Response forged = session.withoutCsrfEcho().delete("/api/v1/api-keys/" + id);
        assertProblem(forged, 403, "csrf_failed");
        assertThat(session.keys().size()).isEqualTo(1);
    }
}
