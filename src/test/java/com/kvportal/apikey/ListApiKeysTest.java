package com.kvportal.apikey;

import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.SignedInTest;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ListApiKeysTest extends SignedInTest {

    @Test
    void shouldListUnrevokedKeysNewestFirstWithoutSecrets() {
        String first = session.createKey("first");
        session.createKey("second");
        String revoked = session.post("/api/v1/api-keys", Map.of("name", "revoked"))
                .json()
                .get("key")
                .get("id")
                .asString();
        session.delete("/api/v1/api-keys/" + revoked);

        Api.Response response = session.get("/api/v1/api-keys");

        assertThat(response.status()).isEqualTo(200);
        JsonNode keys = response.json().get("keys");
        assertThat(keys.findValuesAsString("name")).containsExactly("second", "first");
        assertThat(keys.get(0).propertyNames())
                .containsExactlyInAnyOrder(
                        "id",
                        "project_id",
                        "name",
                        "permissions",
                        "expires_at",
                        "last_used_at",
                        "created_at",
                        "created_by",
                        "metadata",
                        "external_id",
                        "enabled",
                        "allowed_ips",
                        "ratelimits",
                        "credits");
        assertThat(keys.findValuesAsString("created_by"))
                .containsOnly(account.customerId().toString());
        assertThat(response.body()).doesNotContain(first).doesNotContain("digest");
    }

    @Test
    void shouldKeepExpiredKeysListed() {
        session.createKey("old");
        jdbc.sql("update api_keys set expires_at = now() - interval '1 day' where project_id = ?")
                .param(account.projectId())
                .update();

        JsonNode keys = session.keys();
        assertThat(keys.size()).isEqualTo(1);
    }

    @Test
    void shouldAnswerAnEmptyListForANewProject() {
        assertThat(session.keys().size()).isZero();
    }

    @Test
    void shouldNeverShowAnotherOrganizationsKeys() {
        session.createKey("alice's key");
        Api bob = signedUp();

        assertThat(bob.keys().size()).isZero();
        Api bobAdmin = Api.withKey(baseUrl(), bob.createKey("bob admin", "admin"));
        assertThat(bobAdmin.keys().findValuesAsString("name")).containsExactly("bob admin");
    }

    @Test
    void shouldReturn401WithoutCredentialAnd403ForANonAdminKey() {
        assertProblem(api().get("/api/v1/api-keys"), 401, "unauthenticated");

        Api reader = Api.withKey(baseUrl(), session.createKey("reader", "read"));
        assertProblem(reader.get("/api/v1/api-keys"), 403, "insufficient_permissions");
    }
}
