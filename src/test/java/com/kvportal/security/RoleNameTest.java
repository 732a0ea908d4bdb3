package com.kvportal.security;

import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A role in a request body is checked against {@link Role} itself ({@link RoleName}): any other spelling answers 400
 * {@code validation_failed} naming the roles the field takes, in the enum's order, and changes nothing.
 */
class RoleNameTest extends IntegrationTest {

    @Test
    void shouldListTheRolesOfTheEnum() {
        assertThat(Role.wiresExcept()).containsExactly("owner", "admin", "developer", "billing", "viewer");
        assertThat(Role.wiresExcept(Role.OWNER)).containsExactly("admin", "developer", "billing", "viewer");
    }

    @Test
    void shouldRefuseARoleTheInvitationDoesNotOfferNamingThoseItDoes() {
        Api owner = signedUp();
        long before = count("select count(*) from invitations");

        for (String role : new String[] {"owner", "Admin", "root"}) {
            JsonNode problem = assertProblem(
                    owner.post("/api/v1/invitations", Map.of("email", "bob@example.com", "role", role)),
                    400,
                    "validation_failed");
            assertThat(problem.get("errors").get(0).get("field").asString()).isEqualTo("role");
            assertThat(problem.get("errors").get(0).get("message").asString())
                    .isEqualTo("must be one of admin, developer, billing, viewer");
        }
        assertThat(count("select count(*) from invitations")).isEqualTo(before);
    }

    @Test
    void shouldRefuseARoleChangeToNoRoleNamingEveryRole() {
        Api owner = api();
        UUID self = owner.signup().customerId();

        JsonNode problem = assertProblem(
                owner.patch("/api/v1/members/" + self, Map.of("role", "superuser")), 400, "validation_failed");

        assertThat(problem.get("errors").get(0).get("message").asString())
                .isEqualTo("must be one of owner, admin, developer, billing, viewer");
        assertThat(single(String.class, "select role from memberships where customer_id = ?", self))
                .isEqualTo("owner");
    }
}
