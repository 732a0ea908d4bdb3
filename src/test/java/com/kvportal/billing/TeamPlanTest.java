package com.kvportal.billing;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import com.kvportal.support.SandboxEvents;
import java.time.Duration;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * The third tier end to end on the default configuration: a checkout of team through the real stripe-java client and
 * the sandbox's hosted page, its subscription, first invoice and verify's tier.
 */
class TeamPlanTest extends IntegrationTest {

    private static final Duration WEBHOOK_WAIT = Duration.ofSeconds(20);

    @Autowired
    Billing billing;

    @Test
    void shouldTakeAnOrganizationFromCheckoutToATeamSubscriptionWithItsFirstInvoicePaid() {
        SandboxEvents events = SandboxEvents.fromNow(jdbc);
        Api owner = api();
        Api.Account account = owner.signup();
        String key = owner.createKey("backend");
        Api browser = api();

        String sessionId = owner.startCheckout("team");
        assertThat(single(String.class, "select price from sandbox.sandbox_checkout_sessions where id = ?", sessionId))
                .as("the sandbox's team price")
                .isEqualTo("price_sandbox_team");
        Api.Response paid = browser.payCheckout(sessionId, "succeeded");
        assertThat(paid.status()).as(paid.toString()).isEqualTo(303);
        assertThat(browser.follow(paid).header("Location")).isEqualTo("/dashboard/billing?checkout=success");

        JsonNode subscription = owner.subscription();
        assertThat(subscription.get("status").asString()).isEqualTo("active");
        assertThat(subscription.get("plan").get("tier").asString()).isEqualTo("team");
        assertThat(subscription.get("plan").get("storage_bytes").asLong()).isEqualTo(1099511627776L);
        assertThat(billing.effectivePlan(account.organizationId()).tier()).isEqualTo(Tier.TEAM);
        Awaitility.await("the first invoice is paid").atMost(WEBHOOK_WAIT).until(() -> {
            JsonNode invoices = owner.get("/api/v1/billing/invoices").json().get("invoices");
            return invoices.size() == 1
                    && invoices.get(0).get("status").asString().equals("paid");
        });
        JsonNode invoice =
                owner.get("/api/v1/billing/invoices").json().get("invoices").get(0);
        assertThat(invoice.get("amount_paid_cents").asLong()).isEqualTo(10000);
        events.awaitDelivered(WEBHOOK_WAIT);

        // verify's tier and allowance follow within seconds
        Api backend = Api.withKey(baseUrl(), key);
        Awaitility.await("verify answers the team tier")
                .atMost(Duration.ofSeconds(10))
                .until(() -> "team"
                        .equals(backend.post("/api/v1/api-keys/verify")
                                .json()
                                .get("tier")
                                .asString()));
        assertThat(backend.post("/api/v1/api-keys/verify")
                        .json()
                        .get("storage")
                        .get("allowance_bytes")
                        .asLong())
                .isEqualTo(1099511627776L);

        // one live team subscription: no second checkout of team
        Api.Response again = owner.post("/api/v1/billing/checkout", Map.of("tier", "team"));
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.code()).isEqualTo("already_subscribed");
    }
}
