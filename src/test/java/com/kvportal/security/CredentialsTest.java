package com.kvportal.security;

import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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

    private long rows(String table) {
        return count("select count(*) from " + table);
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
        Api session = signedUp();
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
        Api session = signedUp();

        Api.Response response = session.sendRaw(
                "GET", "/api/v1/projects", HttpRequest.BodyPublishers.noBody(), Map.of("Authorization", "Bearer nope"));

        assertProblem(response, 401, "unauthenticated");
    }

    @Test
    void shouldReturn401ForARevokedKey() {
        Api session = signedUp();
        String raw = session.createKey("doomed", "admin");
        assertThat(Api.withKey(baseUrl(), raw).get("/api/v1/projects").status()).isEqualTo(200);

        assertThat(session.delete("/api/v1/api-keys/" + session.keyId("doomed")).status())
                .isEqualTo(204);

        assertUnauthenticated(Api.withKey(baseUrl(), raw));
    }

    @ParameterizedTest(name = "401 for a key {0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "that has expired | expires_at = now() - interval '1 second'",
                "that is well-formed but unknown | digest = sha256('something else'::bytea)"
            })
    void shouldReturn401ForAKeyThatHasExpiredOrIsUnknown(String which, String change) {
        Api session = signedUp();
        String raw = session.createKey("changed", "admin");
        jdbc.sql("update api_keys set " + change + " where id = ?")
                .param(UUID.fromString(session.keyId("changed")))
                .update();

        assertUnauthenticated(Api.withKey(baseUrl(), raw));
    }

    @Test
    void shouldReturn403ForKeysWithoutAdminOnPortalCalls() {
        Api session = signedUp();
        long projects = rows("projects");
        long keys = rows("api_keys");
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
        Api session = signedUp();
        Api write = Api.withKey(baseUrl(), session.createKey("self", "write"));
        String other = session.createKey("other", "read");
        String selfId = session.keyId("self");
        String otherId = session.keyId("other");

        assertProblem(write.delete("/api/v1/api-keys/" + otherId), 403, "insufficient_permissions");
        assertThat(Api.withKey(baseUrl(), other).post("/api/v1/api-keys/verify").status())
                .isEqualTo(200);

        Api.Response revoked = write.delete("/api/v1/api-keys/" + selfId);

        assertThat(revoked.status()).as(revoked.toString()).isEqualTo(204);
        assertThat(session.keyNames()).containsExactly("other");
        assertProblem(write.post("/api/v1/api-keys/verify"), 401, "api_key_revoked");
    }

    @Test
    void shouldLetAKeyRevokeItselfWhateverTheCaseOfItsId() {
        Api session = signedUp();
        Api read = Api.withKey(baseUrl(), session.createKey("self", "read"));

        Api.Response revoked =
                read.delete("/api/v1/api-keys/" + session.keyId("self").toUpperCase());

        assertThat(revoked.status()).as(revoked.toString()).isEqualTo(204);
        assertThat(session.keyNames()).isEmpty();
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
        String keyId = api.keyId("keep");
        long projects = rows("projects");
        long keys = rows("api_keys");

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
        assertThat(api.keyNames()).containsExactly("keep");
        assertThat(api.session().projectId()).isEqualTo(account.projectId());
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
        Api session = signedUp();
        Api admin = Api.withKey(baseUrl(), session.createKey("automation", "admin"));

        Api.Response created = admin.post("/api/v1/api-keys", Map.of("name", "by-key"));
        Api.Response project = admin.post("/api/v1/projects", Map.of("name", "by-key"));
        Api.Response revoked = admin.delete("/api/v1/api-keys/" + session.keyId("by-key"));

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(project.status()).as(project.toString()).isEqualTo(201);
        assertThat(revoked.status()).as(revoked.toString()).isEqualTo(204);
    }
}
