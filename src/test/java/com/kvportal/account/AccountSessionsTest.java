package com.kvportal.account;

import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.SignedInTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class AccountSessionsTest extends SignedInTest {

    private Api signedInAgain() {
        Api api = api();
        api.post("/api/v1/auth/login", Map.of("email", account.email(), "password", "correct horse battery"));
        return api;
    }

    private List<JsonNode> sessions(Api api) {
        Api.Response response = api.get("/api/v1/account/sessions");
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        List<JsonNode> list = new ArrayList<>();
        response.json().get("sessions").forEach(list::add);
        return list;
    }

    @Test
    void shouldListTheSessionsWithOpaqueIdsAndMarkTheCurrentOne() {
        Api other = signedInAgain();

        List<JsonNode> listed = sessions(session);

        assertThat(listed).hasSize(2);
        assertThat(listed).filteredOn(s -> s.get("current").asBoolean()).hasSize(1);
        for (JsonNode s : listed) {
            String id = s.get("id").asString();
            UUID.fromString(id);
            assertThat(id).isNotEqualTo(session.cookie("SESSION")).isNotEqualTo(other.cookie("SESSION"));
            assertThat(count("select count(*) from spring_session where session_id = ? or primary_id = ?", id, id))
                    .isZero();
            assertThat(s.get("ip").asString()).isEqualTo("127.0.0.1");
            assertThat(s.get("created_at").asString()).endsWith("Z");
            assertThat(s.get("last_seen_at").asString()).endsWith("Z");
            assertThat(s.has("user_agent")).isTrue();
        }
    }

    @Test
    void shouldEndOneSessionWhoseNextRequestIsRefused() {
        Api other = signedInAgain();
        String otherId = sessions(other).stream()
                .filter(s -> s.get("current").asBoolean())
                .findFirst()
                .orElseThrow()
                .get("id")
                .asString();

        Api.Response ended = session.delete("/api/v1/account/sessions/" + otherId);

        assertThat(ended.status()).as(ended.toString()).isEqualTo(204);
        assertProblem(other.get("/api/v1/session"), 401, "unauthenticated");
        assertThat(session.get("/api/v1/session").status()).isEqualTo(200);
        assertProblem(session.delete("/api/v1/account/sessions/" + otherId), 404, "session_not_found");
        assertThat(session.get("/api/v1/audit-events").body()).contains("customer.session_ended");
    }

    @Test
    void shouldNeverEndAnotherCustomersSession() {
        Api stranger = api();
        stranger.signup();
        String strangerId = sessions(stranger).get(0).get("id").asString();

        assertProblem(session.delete("/api/v1/account/sessions/" + strangerId), 404, "session_not_found");
        assertProblem(session.delete("/api/v1/account/sessions/" + UUID.randomUUID()), 404, "session_not_found");
        assertThat(stranger.get("/api/v1/session").status()).isEqualTo(200);
    }

    @Test
    void shouldEndEverySessionButThisOne() {
        Api second = signedInAgain();
        Api third = signedInAgain();

        Api.Response ended = session.delete("/api/v1/account/sessions");

        assertThat(ended.status()).as(ended.toString()).isEqualTo(204);
        assertProblem(second.get("/api/v1/session"), 401, "unauthenticated");
        assertProblem(third.get("/api/v1/session"), 401, "unauthenticated");
        assertThat(sessions(session)).hasSize(1);
    }

    @Test
    void shouldEndTheCurrentSessionWhenNamed() {
        String own = sessions(session).get(0).get("id").asString();

        assertThat(session.delete("/api/v1/account/sessions/" + own).status()).isEqualTo(204);

        assertProblem(session.get("/api/v1/session"), 401, "unauthenticated");
    }

    @Test
    void shouldNeedASession() {
        assertProblem(api().get("/api/v1/account/sessions"), 401, "unauthenticated");
        assertProblem(
                Api.withKey(baseUrl(), session.createKey("admin", "admin")).get("/api/v1/account/sessions"),
                400,
                "session_required");
        assertProblem(session.withoutCsrfEcho().delete("/api/v1/account/sessions"), 403, "csrf_failed");
    }
}
