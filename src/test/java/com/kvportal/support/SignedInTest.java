package com.kvportal.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;

/**
 * Base of the tests that act as one signed-in customer: before each test a fresh signup (its email verified), so each
 * test is a tenant of its own ({@link #session} carries the session, {@link #account} what the signup answered).
 */
public abstract class SignedInTest extends IntegrationTest {

    protected Api session;
    protected Api.Account account;

    /** A member of {@link #account}'s organization, with a session of their own. */
    public record Member(Api api, UUID customerId, String email) {}

    @BeforeEach
    void signUp() {
        session = api();
        account = session.signup();
    }

    /**
     * A member joined as a person does: invited by the session's customer with this role, signed up from the mailed
     * link (which verifies the address).
     */
    protected Member join(String role) {
        String email = "member-" + UUID.randomUUID() + "@example.com";
        Api.Response invited = session.post("/api/v1/invitations", Map.of("email", email, "role", role));
        assertThat(invited.status()).as(invited.toString()).isEqualTo(201);
        String token = Inbox.token(new Inbox(baseUrl(), email).awaitMessage("You are invited"));
        Api member = api();
        Api.Response signup = member.post(
                "/api/v1/auth/signup", Map.of("email", email, "password", Api.PASSWORD, "invitation_token", token));
        assertThat(signup.status()).as(signup.toString()).isEqualTo(201);
        assertThat(signup.json().get("organization_id").asString())
                .isEqualTo(account.organizationId().toString());
        return new Member(
                member, UUID.fromString(signup.json().get("customer_id").asString()), email);
    }

    /** The customer's role in {@link #account}'s organization as stored, or {@code none}. */
    protected String roleOf(UUID customerId) {
        return jdbc.sql("select role from memberships where organization_id = ? and customer_id = ?")
                .params(account.organizationId(), customerId)
                .query(String.class)
                .optional()
                .orElse("none");
    }

    /** The role in its first organization that {@code api}'s session reports. */
    protected static String sessionRole(Api api) {
        return api.get("/api/v1/session")
                .json()
                .get("organizations")
                .get(0)
                .get("role")
                .asString();
    }
}
