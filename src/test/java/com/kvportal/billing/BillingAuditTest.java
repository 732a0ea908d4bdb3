package com.kvportal.billing;

import static com.kvportal.billing.StripePayloads.event;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/** Billing's changes in the audit log: by the customer who made them, or by the provider when its webhook did. */
@TestPropertySource(properties = "PAYMENT_WEBHOOK_SECRET=" + Webhooks.SECRET)
class BillingAuditTest extends IntegrationTest {

    @Test
    void shouldRecordWebhookDrivenChangesWithTheProviderAsActor() {
        ProviderCustomer org = ProviderCustomer.signUp(baseUrl(), jdbc, Duration.ofDays(1));
        String invoiceId = "in_" + StripePayloads.random();

        org.deliverOk(org.subscriptionEvent("customer.subscription.created", Instant.now(), "active"));
        org.deliverOk(event(
                "invoice.payment_failed", Instant.now(), org.invoice(invoiceId, "open", 2000, 0, 1, Instant.now())));

        List<JsonNode> events = events(org.owner());
        JsonNode activated = only(events, "subscription.activated");
        assertThat(activated.get("actor").get("type").asString()).isEqualTo("provider");
        assertThat(activated.get("target").get("type").asString()).isEqualTo("subscription");
        assertThat(activated.get("details").get("tier").asString()).isEqualTo("pro");
        assertThat(activated.get("user_agent").asString()).startsWith("Stripe/");
        JsonNode failed = only(events, "invoice.payment_failed");
        assertThat(failed.get("actor").get("type").asString()).isEqualTo("provider");
        assertThat(failed.get("target").get("id").asString()).isEqualTo(invoiceId);
        assertThat(failed.get("details").get("attempt_count").asInt()).isEqualTo(1);
    }

    @Test
    void shouldRecordACheckoutStartedByTheCustomer() {
        Api owner = api();
        Api.Account account = owner.signup();

        owner.startCheckout("pro");

        JsonNode started = only(events(owner), "billing.checkout_started");
        assertThat(started.get("actor").get("type").asString()).isEqualTo("customer");
        assertThat(started.get("actor").get("label").asString()).isEqualTo(account.email());
        assertThat(started.get("details").get("tier").asString()).isEqualTo("pro");
    }

    private static JsonNode only(List<JsonNode> events, String action) {
        List<JsonNode> found = events.stream()
                .filter(e -> e.get("action").asString().equals(action))
                .toList();
        assertThat(found).as(action + " in " + events).hasSize(1);
        return found.get(0);
    }

    private static List<JsonNode> events(Api api) {
        List<JsonNode> events = new ArrayList<>();
        api.get("/api/v1/audit-events?limit=200").json().get("events").forEach(events::add);
        return events;
    }
}
