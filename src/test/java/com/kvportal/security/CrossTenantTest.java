package com.kvportal.security;

import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** A second organization, with its session and its admin key, against the first one's keys and projects. */
class CrossTenantTest extends IntegrationTest {

    private Api first;
    private Api.Account firstAccount;
    private String firstKey;
    private String firstKeyId;
    private UUID firstSecondProject;

    private Api second;
    private Api.Account secondAccount;
    private Api secondAdmin;

    @BeforeEach
    void twoOrganizations() {
        first = api();
        firstAccount = first.signup();
        firstKey = first.createKey("first-admin", "admin");
        firstKeyId = first.keys().get(0).get("id").asString();
        firstSecondProject = UUID.fromString(first.post("/api/v1/projects", Map.of("name", "First's secrets"))
                .json()
                .get("id")
                .asString());

        second = api();
        secondAccount = second.signup();
        secondAdmin = Api.withKey(baseUrl(), second.createKey("second-admin", "admin"));
    }

    private static List<String> values(JsonNode array, String field) {
        List<String> values = new ArrayList<>();
        array.forEach(item -> values.add(item.get(field).asString()));
        return values;
    }

    @Test
    void shouldAnswer404WhenRevokingAnotherOrganizationsKeyAndKeepItWorking() {
        for (Api intruder : new Api[] {second, secondAdmin}) {
            Api.Response foreign = intruder.delete("/api/v1/api-keys/" + firstKeyId);
            Api.Response unknown = intruder.delete("/api/v1/api-keys/" + UUID.randomUUID());

            assertProblem(foreign, 404, "api_key_not_found");
            assertProblem(unknown, 404, "api_key_not_found");
            assertThat(foreign.json().get("detail")).isEqualTo(unknown.json().get("detail"));
        }

        assertThat(Api.withKey(baseUrl(), firstKey)
                        .post("/api/v1/api-keys/verify")
                        .status())
                .isEqualTo(200);
        assertThat(values(first.keys(), "id")).containsExactly(firstKeyId);
    }

    @Test
    void shouldAnswer404WhenSwitchingToAnotherOrganizationsProject() {
        for (UUID project : new UUID[] {firstAccount.projectId(), firstSecondProject}) {
            assertProblem(
                    second.put("/api/v1/session/project", Map.of("project_id", project)), 404, "project_not_found");
        }

        assertThat(second.session()).as("still in its own project").isEqualTo(secondAccount);
    }

    @Test
    void shouldNeverListAnotherOrganizationsData() {
        for (Api intruder : new Api[] {second, secondAdmin}) {
            assertThat(values(intruder.keys(), "name")).containsExactly("second-admin");
            JsonNode projects = intruder.get("/api/v1/projects").json().get("projects");
            assertThat(values(projects, "id"))
                    .containsExactly(secondAccount.projectId().toString());
            JsonNode session = intruder.get("/api/v1/session").json();
            assertThat(values(session.get("projects"), "organization_id"))
                    .containsOnly(secondAccount.organizationId().toString());
            assertThat(session.get("email").asString()).isEqualTo(secondAccount.email());
        }
    }

    @Test
    void shouldCreateWhatAKeyCreatesInItsOwnOrganization() {
        Api.Response project = secondAdmin.post("/api/v1/projects", Map.of("name", "Mine"));

        assertThat(project.json().get("organization_id").asString())
                .isEqualTo(secondAccount.organizationId().toString());
        assertThat(values(first.get("/api/v1/projects").json().get("projects"), "name"))
                .doesNotContain("Mine");
    }
}
