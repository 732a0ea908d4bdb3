package com.kvportal.account;

import static com.kvportal.support.Problems.assertFieldErrors;
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

class SessionTest extends SignedInTest {

    private static void assertSessionView(JsonNode body, Api.Account account, UUID activeProject) {
        assertThat(body.get("customer_id").asString())
                .isEqualTo(account.customerId().toString());
        assertThat(body.get("email").asString()).isEqualTo(account.email());
        assertThat(body.get("organization_id").asString())
                .isEqualTo(account.organizationId().toString());
        assertThat(body.get("project_id").asString()).isEqualTo(activeProject.toString());
    }

    @Test
    void shouldDescribeTheSignedInCustomerAndTheProjectsInReach() {
        Api.Response response = session.get("/api/v1/session");

        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        JsonNode body = response.json();
        assertSessionView(body, account, account.projectId());
        assertThat(body.get("projects")).hasSize(1);
        JsonNode project = body.get("projects").get(0);
        assertThat(project.get("id").asString()).isEqualTo(account.projectId().toString());
        assertThat(project.get("organization_id").asString())
                .isEqualTo(account.organizationId().toString());
        assertThat(project.get("name").asString()).isEqualTo("Default project");
    }

    @Test
    void shouldSetTheReadableCsrfCookieWhenItIsMissing() {
        session.removeCookie("XSRF-TOKEN");

        Api.Response response = session.get("/api/v1/session");

        assertThat(response.setCookie("XSRF-TOKEN")).isNotNull().doesNotContainIgnoringCase("HttpOnly");
        assertThat(session.post("/api/v1/projects", Map.of("name", "after refresh"))
                        .status())
                .isEqualTo(201);
    }

    @Test
    void shouldDescribeTheKeysCustomerAndProjectForAnAdminKey() {
        UUID second = session.createProject("Second");
        Api admin = Api.withKey(baseUrl(), session.createKey("automation", "admin"));

        Api.Response response = admin.get("/api/v1/session");

        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        assertSessionView(response.json(), account, account.projectId());
        List<String> ids = new ArrayList<>();
        response.json().get("projects").forEach(p -> ids.add(p.get("id").asString()));
        assertThat(ids).containsExactlyInAnyOrder(account.projectId().toString(), second.toString());
    }

    @Test
    void shouldSwitchTheActiveProjectSoThatNewKeysLandThere() {
        UUID second = session.createProject("Second");

        Api.Response switched = session.put("/api/v1/session/project", Map.of("project_id", second.toString()));

        assertThat(switched.status()).as(switched.toString()).isEqualTo(200);
        assertSessionView(switched.json(), account, second);
        assertThat(switched.json().get("projects")).hasSize(2);
        assertSessionView(session.get("/api/v1/session").json(), account, second);

        session.createKey("in-second");
        assertThat(session.keyNames()).containsExactly("in-second");
        session.put(
                "/api/v1/session/project",
                Map.of("project_id", account.projectId().toString()));
        assertThat(session.keyNames()).isEmpty();
    }

    @Test
    void shouldAnswerTheSame404ForAnotherOrganizationsProjectAndAnUnknownOne() {
        Api other = api();
        Api.Account stranger = other.signup();

        Api.Response foreign = session.put("/api/v1/session/project", Map.of("project_id", stranger.projectId()));
        Api.Response unknown = session.put("/api/v1/session/project", Map.of("project_id", UUID.randomUUID()));

        assertProblem(foreign, 404, "project_not_found");
        assertProblem(unknown, 404, "project_not_found");
        assertThat(foreign.json()).isEqualTo(unknown.json());
        assertSessionView(session.get("/api/v1/session").json(), account, account.projectId());
    }

    @Test
    void shouldReturn400ForAMalformedOrMissingProjectId() {
        assertFieldErrors(session.put("/api/v1/session/project", Map.of("project_id", "not-a-uuid")), "project_id");
        assertFieldErrors(session.put("/api/v1/session/project", Map.of("project_id", 42)), "project_id");
        assertFieldErrors(session.put("/api/v1/session/project", Map.of()), "project_id");
        assertProblem(
                session.send("PUT", "/api/v1/session/project", "{\"project_id\":", "application/json"),
                400,
                "malformed_json");
        assertSessionView(session.get("/api/v1/session").json(), account, account.projectId());
    }

    @Test
    void shouldReturn401WithoutACredential() {
        Api api = api();

        Api.Response get = api.get("/api/v1/session");
        Api.Response put = api.put("/api/v1/session/project", Map.of("project_id", UUID.randomUUID()));

        assertProblem(get, 401, "unauthenticated");
        assertProblem(put, 401, "unauthenticated");
        assertThat(get.header("WWW-Authenticate")).isEqualTo("Bearer");
    }

    @Test
    void shouldReturn403ForAKeyWithoutAdmin() {
        Api write = Api.withKey(baseUrl(), session.createKey("ci", "read", "write"));

        assertProblem(write.get("/api/v1/session"), 403, "insufficient_permissions");
        assertProblem(
                write.put("/api/v1/session/project", Map.of("project_id", account.projectId())),
                403,
                "insufficient_permissions");
    }

    @Test
    void shouldKeepAnAdminKeyBoundToItsProject() {
        UUID second = session.createProject("Second");
        Api admin = Api.withKey(baseUrl(), session.createKey("automation", "admin"));

        Api.Response response = admin.put("/api/v1/session/project", Map.of("project_id", second));

        assertProblem(response, 400, "session_required");
        assertSessionView(admin.get("/api/v1/session").json(), account, account.projectId());
    }
}
