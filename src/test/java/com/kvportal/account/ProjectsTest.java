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

class ProjectsTest extends SignedInTest {

    private static List<String> projectNames(Api api) {
        Api.Response response = api.get("/api/v1/projects");
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        List<String> names = new ArrayList<>();
        response.json().get("projects").forEach(p -> names.add(p.get("name").asString()));
        return names;
    }

    private long projects(UUID organizationId) {
        return count("select count(*) from projects where organization_id = ?", organizationId);
    }

    @Test
    void shouldListTheProjectsOfTheCurrentOrganization() {
        Api.Response response = session.get("/api/v1/projects");

        assertThat(response.status()).isEqualTo(200);
        JsonNode projects = response.json().get("projects");
        assertThat(projects).hasSize(1);
        JsonNode project = projects.get(0);
        assertThat(project.get("id").asString()).isEqualTo(account.projectId().toString());
        assertThat(project.get("organization_id").asString())
                .isEqualTo(account.organizationId().toString());
        assertThat(project.get("name").asString()).isEqualTo("Default project");
        assertThat(project.get("created_at").asString())
                .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z");
    }

    @Test
    void shouldCreateAProjectInTheCurrentOrganization() {
        Api.Response created = session.post("/api/v1/projects", Map.of("name", "  Staging  "));

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        JsonNode project = created.json();
        UUID id = UUID.fromString(project.get("id").asString());
        assertThat(project.get("organization_id").asString())
                .isEqualTo(account.organizationId().toString());
        assertThat(project.get("name").asString()).isEqualTo("Staging");
        assertThat(project.get("created_at").asString()).endsWith("Z");
        assertThat(projectNames(session)).containsExactly("Default project", "Staging");
        List<String> inSession = new ArrayList<>();
        session.get("/api/v1/session")
                .json()
                .get("projects")
                .forEach(p -> inSession.add(p.get("id").asString()));
        assertThat(inSession).contains(id.toString());
    }

    @Test
    void shouldKeepSqlAndHtmlInANameLiterally() {
        String name = "<img src=x onerror=alert(1)>'; delete from projects;--";

        Api.Response created = session.post("/api/v1/projects", Map.of("name", name));

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.json().get("name").asString()).isEqualTo(name);
        assertThat(projectNames(session)).contains(name);
    }

    @Test
    void shouldAcceptANameOf100Characters() {
        assertThat(session.post("/api/v1/projects", Map.of("name", "n".repeat(100)))
                        .status())
                .isEqualTo(201);
    }

    @Test
    void shouldReturn400ForABlankTooLongOrControlCharacterName() {
        for (String name : new String[] {"", "   ", "n".repeat(101), "line\nbreak", "bell\u0007"}) {
            assertFieldErrors(session.post("/api/v1/projects", Map.of("name", name)), "name");
        }
        // a NUL is refused in any JSON body before it is parsed (see BadTextTest)
        assertProblem(session.post("/api/v1/projects", Map.of("name", "nul\u0000byte")), 400, "malformed_json");
        assertFieldErrors(session.post("/api/v1/projects", Map.of()), "name");
        assertFieldErrors(session.post("/api/v1/projects", Map.of("name", List.of("a"))), "name");
        assertThat(projects(account.organizationId())).isEqualTo(1);
    }

    @Test
    void shouldReturn401WithoutACredential() {
        assertProblem(api().get("/api/v1/projects"), 401, "unauthenticated");
        assertProblem(api().post("/api/v1/projects", Map.of("name", "x")), 401, "unauthenticated");
    }

    @Test
    void shouldReturn403ForAKeyWithoutAdmin() {
        Api write = Api.withKey(baseUrl(), session.createKey("ci", "write", "read"));

        assertProblem(write.get("/api/v1/projects"), 403, "insufficient_permissions");
        assertProblem(write.post("/api/v1/projects", Map.of("name", "x")), 403, "insufficient_permissions");
        assertThat(projects(account.organizationId())).isEqualTo(1);
    }

    @Test
    void shouldServeAnAdminKeyWithoutCsrf() {
        Api admin = Api.withKey(baseUrl(), session.createKey("automation", "admin"));

        Api.Response created = admin.post("/api/v1/projects", Map.of("name", "From CI"));

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.json().get("organization_id").asString())
                .isEqualTo(account.organizationId().toString());
        assertThat(projectNames(admin)).containsExactly("Default project", "From CI");
        assertThat(projectNames(session)).containsExactly("Default project", "From CI");
    }

    @Test
    void shouldNeverShowOneOrganizationsProjectsToAnother() {
        session.post("/api/v1/projects", Map.of("name", "Secret plans"));
        Api second = signedUp();
        Api secondAdmin = Api.withKey(baseUrl(), second.createKey("automation", "admin"));

        assertThat(projectNames(second)).containsExactly("Default project");
        assertThat(projectNames(secondAdmin)).containsExactly("Default project");
    }

    @Test
    void shouldReturn415ForPlainText() {
        assertProblem(
                session.send("POST", "/api/v1/projects", "{\"name\":\"x\"}", "text/plain"),
                415,
                "unsupported_media_type");
    }
}
