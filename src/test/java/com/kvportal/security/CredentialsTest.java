package com.kvportal.security;

import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class CredentialsTest extends IntegrationTest {

    /** Portal calls of every method, each of which needs a session or an admin key. */
    private static List<Api.Response> portalCalls(Api api) {
        return List.of(
                api.get("/api/v1/api-keys"),
                api.post("/api/v1/api-keys", Map.of("name", "x")),
                api.delete("/api/v1/api-keys/" + UUID.randomUUID()),
                api.get("/api/v1/projects"),
                api.post("/api/v1/projects", Map.of("name", "x")),
                api.get("/api/v1/session"),
                api.put("/api/v1/session/project", Map.of("project_id", UUID.randomUUID())),
                api.post("/api/v1/auth/logout"));
    }

    private static void assertUnauthenticated(Api api) {
        for (Api.Response response : portalCalls(api)) {
            assertProblem(response, 401, "unauthenticated");
            assertThat(response.header("WWW-Authenticate"))
                    .as(response.toString())
                    .isEqualTo("Bearer");
        }
    }

    private static String keyId(Api session, String name) {
        for (JsonNode key : session.get("/api/v1/api-keys").json().get("keys")) {
            if (key.get("name").asString().equals(name)) {
                return key.get("id").asString();
            }
        }
        throw new AssertionError("no key named " + name);
    }

    private static List<String> keyNames(Api session) {
        List<String> names = new ArrayList<>();
        session.get("/api/v1/api-keys")
                .json()
                .get("keys")
                .forEach(k -> names.add(k.get("name").asString()));
        return names;
    }

    private int rows(String table) {
        return jdbc.sql("select count(*) from " + table).query(Integer.class).single();
    }

    @Test
    void shouldReturn401WithoutACredential() {
        assertUnauthenticated(api());
    }

    @Test
    void shouldReturn401ForAGarbageBearer() {
        assertUnauthenticated(Api.withKey(baseUrl(), "garbage"));
        assertUnauthenticated(Api.withKey(baseUrl(), "kv_" + "A".repeat(32)));
        assertUnauthenticated(Api.withKey(baseUrl(), ""));
    }

    @Test
    void shouldReturn401ForAnotherAuthorizationScheme() {
        Api session = api();
        session.signup();
        String raw = session.createKey("admin", "admin");

        Api.Response basic = api().sendRaw(
                        "GET",
                        "/api/v1/projects",
                        HttpRequest.BodyPublishers.noBody(),
                        Map.of("Authorization", "Basic " + raw));

        assertProblem(basic, 401, "unauthenticated");
    }

    @Test
    void shouldNotFallBackToTheSessionWhenTheBearerIsBad() {
        Api session = api();
        session.signup();

        Api.Response response = session.sendRaw(
                "GET", "/api/v1/projects", HttpRequest.BodyPublishers.noBody(), Map.of("Authorization", "Bearer nope"));

        assertProblem(response, 401, "unauthenticated");
    }

    @Test
    void shouldReturn401ForARevokedKey() {
        Api session = api();
        session.signup();
        String raw = session.createKey("doomed", "admin");
        assertThat(Api.withKey(baseUrl(), raw).get("/api/v1/projects").status()).isEqualTo(200);

        assertThat(session.delete("/api/v1/api-keys/" + keyId(session, "doomed"))
                        .status())
                .isEqualTo(204);

        assertUnauthenticated(Api.withKey(baseUrl(), raw));
    }

    @Test
    void shouldReturn401ForAnExpiredKey() {
        Api session = api();
        session.signup();
        String raw = session.createKey("old", "admin");
        jdbc.sql("update api_keys set expires_at = now() - interval '1 second' where id = ?")
                .param(UUID.fromString(keyId(session, "old")))
                .update();

        assertUnauthenticated(Api.withKey(baseUrl(), raw));
    }

    @Test
    void shouldReturn401ForAWellFormedKeyThatIsUnknown() {
        Api session = api();
        session.signup();
        String raw = session.createKey("forgotten", "admin");
        jdbc.sql("update api_keys set digest = sha256('something else'::bytea) where id = ?")
                .param(UUID.fromString(keyId(session, "forgotten")))
                .update();

        assertUnauthenticated(Api.withKey(baseUrl(), raw));
    }

    @Test
    void shouldReturn403ForKeysWithoutAdminOnPortalCalls() {
        Api session = api();
        session.signup();
        int projects = rows("projects");
        int keys = rows("api_keys");
        for (String[] permissions : new String[][] {{"read"}, {"write"}, {"read", "write"}}) {
            Api key = Api.withKey(baseUrl(), session.createKey(String.join("+", permissions), permissions));
            keys++;
            for (Api.Response response : portalCalls(key)) {
                assertProblem(response, 403, "insufficient_permissions");
            }
        }
        assertThat(rows("projects")).isEqualTo(projects);
        assertThat(rows("api_keys")).isEqualTo(keys);
    }

    @Test
    void shouldLetAKeyWithoutAdminRevokeItselfButNoOtherKey() {
        Api session = api();
        session.signup();
        Api write = Api.withKey(baseUrl(), session.createKey("self", "write"));
        String other = session.createKey("other", "read");
        String selfId = keyId(session, "self");
        String otherId = keyId(session, "other");

        assertProblem(write.delete("/api/v1/api-keys/" + otherId), 403, "insufficient_permissions");
        assertThat(Api.withKey(baseUrl(), other).post("/api/v1/api-keys/verify").status())
                .isEqualTo(200);

        Api.Response revoked = write.delete("/api/v1/api-keys/" + selfId);

        assertThat(revoked.status()).as(revoked.toString()).isEqualTo(204);
        assertThat(keyNames(session)).containsExactly("other");
        assertProblem(write.post("/api/v1/api-keys/verify"), 401, "api_key_revoked");
    }

    @Test
    void shouldLetAKeyRevokeItselfWhateverTheCaseOfItsId() {
        Api session = api();
        session.signup();
        Api read = Api.withKey(baseUrl(), session.createKey("self", "read"));

        Api.Response revoked =
                read.delete("/api/v1/api-keys/" + keyId(session, "self").toUpperCase());

        assertThat(revoked.status()).as(revoked.toString()).isEqualTo(204);
        assertThat(keyNames(session)).isEmpty();
    }

    @Test
    void shouldRefuseStateChangingSessionCallsWithoutTheCsrfHeaderAndChangeNothing() {
        Api api = api();
        Api.Account account = api.signup();
        api.createKey("keep");
        UUID second = UUID.fromString(api.post("/api/v1/projects", Map.of("name", "Second"))
                .json()
                .get("id")
                .asString());
        String keyId = keyId(api, "keep");
        int projects = rows("projects");
        int keys = rows("api_keys");

        for (Api forger : new Api[] {api.withoutCsrfEcho(), api.withCsrfToken("not-the-token")}) {
            assertProblem(forger.post("/api/v1/api-keys", Map.of("name", "forged")), 403, "csrf_failed");
            assertProblem(forger.delete("/api/v1/api-keys/" + keyId), 403, "csrf_failed");
            assertProblem(forger.post("/api/v1/projects", Map.of("name", "forged")), 403, "csrf_failed");
            assertProblem(forger.put("/api/v1/session/project", Map.of("project_id", second)), 403, "csrf_failed");
            assertProblem(forger.post("/api/v1/auth/logout"), 403, "csrf_failed");
        }

        api.withCsrfEcho();
        assertThat(rows("projects")).isEqualTo(projects);
        assertThat(rows("api_keys")).isEqualTo(keys);
        assertThat(keyNames(api)).containsExactly("keep");
        JsonNode session = api.get("/api/v1/session").json();
        assertThat(session.get("project_id").asString())
                .isEqualTo(account.projectId().toString());
    }

    @Test
    void shouldNotNeedCsrfForSafeSessionCalls() {
        Api api = api().withoutCsrfEcho();
        api.signup();

        assertThat(api.get("/api/v1/projects").status()).isEqualTo(200);
        assertThat(api.get("/api/v1/api-keys").status()).isEqualTo(200);
    }

    @Test
    void shouldNotNeedCsrfForBearerCalls() {
        Api session = api();
        session.signup();
        Api admin = Api.withKey(baseUrl(), session.createKey("automation", "admin"));

        Api.Response created = admin.post("/api/v1/api-keys", Map.of("name", "by-key"));
        Api.Response project = admin.post("/api/v1/projects", Map.of("name", "by-key"));
        Api.Response revoked = admin.delete("/api/v1/api-keys/" + keyId(session, "by-key"));

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(project.status()).as(project.toString()).isEqualTo(201);
        assertThat(revoked.status()).as(revoked.toString()).isEqualTo(204);
    }
}
