package com.kvportal.account;

import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.Inbox;
import com.kvportal.support.IntegrationTest;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Until the email address is verified, a customer may log in and read, but nothing that gives the account reach
 * beyond itself: keys, invitations, webhook endpoints, organizations, two-step login, checkout.
 */
class UnverifiedAccountTest extends IntegrationTest {

    /** Every call an unverified customer may not make, each of which would change something. */
    private static List<Api.Response> grantingCalls(Api api) {
        return List.of(
                api.post("/api/v1/api-keys", Map.of("name", "mine", "permissions", List.of("admin"))),
                api.post(
                        "/api/v1/invitations",
                        Map.of("email", "friend-" + UUID.randomUUID() + "@example.com", "role", "admin")),
                api.post("/api/v1/webhook-endpoints", Map.of("url", "https://hooks.example.com/kv")),
                api.post("/api/v1/organizations", Map.of("name", "Second")),
                api.post("/api/v1/account/totp", Map.of("current_password", Api.PASSWORD)),
                api.post("/api/v1/account/totp/confirm", Map.of("code", "123456")),
                api.post("/api/v1/billing/checkout", Map.of("tier", "pro")));
    }

    /** What any of those calls would have left behind, for the customer and their organization. */
    private long traces(Api.Account account) {
        return count("select count(*) from api_keys where customer_id = ?", account.customerId())
                + count("select count(*) from invitations where organization_id = ?", account.organizationId())
                + count("select count(*) from webhook_endpoints where organization_id = ?", account.organizationId())
                + count("select count(*) from memberships where customer_id = ?", account.customerId())
                + count("select count(*) from customers where id = ? and totp_secret is not null", account.customerId())
                + count("select count(*) from checkout_sessions where organization_id = ?", account.organizationId())
                + count("select count(*) from audit_events where organization_id = ?", account.organizationId());
    }

    @Test
    void shouldLeaveAnAccountSignedUpWithSomeoneElsesAddressPowerless() {
        // the attacker signs up first with the victim's address, which they cannot verify
        Api attacker = api();
        Api.Account account = attacker.signupUnverified();
        long before = traces(account);

        for (Api.Response refused : grantingCalls(attacker)) {
            assertThat(assertProblem(refused, 403, "email_unverified")
                            .get("detail")
                            .asString())
                    .as(refused.toString())
                    .contains("Verify your email address");
        }

        assertThat(traces(account)).isEqualTo(before);
        // the victim's mailbox holds the verification link only: no invitation went anywhere
        assertThat(new Inbox(baseUrl(), account.email()).messages()).hasSize(1);
    }

    @Test
    void shouldLetAnUnverifiedCustomerLogInAndRead() {
        Api.Account account = api().signupUnverified();
        Api session = api();

        assertThat(session.post("/api/v1/auth/login", Map.of("email", account.email(), "password", Api.PASSWORD))
                        .status())
                .isEqualTo(200);

        assertThat(session.get("/api/v1/session").json().get("email_verified").asBoolean())
                .isFalse();
        for (String read : List.of(
                "/api/v1/api-keys",
                "/api/v1/projects",
                "/api/v1/members",
                "/api/v1/webhook-endpoints",
                "/api/v1/audit-events",
                "/api/v1/billing/invoices")) {
            assertThat(session.get(read).status()).as(read).isEqualTo(200);
        }
    }

    @Test
    void shouldAllowTheRefusedCallsOnceTheAddressIsVerified() {
        Api session = api();
        Api.Account account = session.signupUnverified();
        assertProblem(session.post("/api/v1/api-keys", Map.of("name", "mine")), 403, "email_unverified");

        session.verifyEmail();

        assertThat(session.post("/api/v1/api-keys", Map.of("name", "mine")).status())
                .isEqualTo(201);
        assertThat(session.post("/api/v1/organizations", Map.of("name", "Second"))
                        .status())
                .isEqualTo(201);
        assertThat(session.post(
                                "/api/v1/invitations",
                                Map.of("email", "friend-" + UUID.randomUUID() + "@example.com", "role", "viewer"))
                        .status())
                .isEqualTo(201);
        assertThat(count("select count(*) from api_keys where customer_id = ?", account.customerId()))
                .isEqualTo(1);
    }
}
