package com.kvportal.billing;

import static com.kvportal.billing.StripePayloads.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.kvportal.support.IntegrationTest;
import com.kvportal.support.WebhookReceiver;
import com.kvportal.support.WebhookReceiver.Received;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The provider's news of invoices and subscriptions reaches the organization's webhook endpoints:
 * {@code invoice.payment_failed} and {@code subscription.updated}, once per change, verified as a receiver would.
 */
@WebhookReceiver.Reachable
class BillingWebhookEventsTest extends IntegrationTest {

    @Test
    void shouldTellTheEndpointsOfAFailedPaymentAndAnUpdatedSubscriptionOnce() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            ProviderCustomer org = ProviderCustomer.signUp(baseUrl(), jdbc, Duration.ofDays(1));
            String secret = org.owner()
                    .post(
                            "/api/v1/webhook-endpoints",
                            Map.of(
                                    "url",
                                    receiver.url(),
                                    "events",
                                    List.of("invoice.payment_failed", "subscription.updated")))
                    .json()
                    .get("secret")
                    .asString();
            Instant t = Instant.now().minusSeconds(100);
            org.deliverOk(org.subscriptionEvent("customer.subscription.created", t, "active"));
            String updated = org.subscriptionEvent("customer.subscription.updated", t.plusSeconds(10), "past_due");
            org.deliverOk(updated);
            org.deliverOk(updated); // the provider's retry: no news
            String invoiceId = "in_" + StripePayloads.random();
            org.deliverOk(
                    event("invoice.payment_failed", t.plusSeconds(20), org.invoice(invoiceId, "open", 2000, 0, 1, t)));

            await().atMost(Duration.ofSeconds(20))
                    .until(() -> receiver.received().size() >= 2);
            await().pollDelay(Duration.ofSeconds(1)).until(() -> true);
            List<Received> received = receiver.received();
            assertThat(received).hasSize(2);
            for (Received delivery : received) {
                delivery.verify(secret);
            }
            JsonNode subscription = data(received, "subscription.updated");
            assertThat(subscription.get("status").asString()).isEqualTo("past_due");
            assertThat(subscription.get("tier").asString()).isEqualTo("pro");
            JsonNode invoice = data(received, "invoice.payment_failed");
            assertThat(invoice.get("provider_invoice_id").asString()).isEqualTo(invoiceId);
            assertThat(invoice.get("attempt_count").asInt()).isEqualTo(1);
        }
    }

    /** The {@code data} of the delivered event of this type. */
    private static JsonNode data(List<Received> received, String type) {
        return received.stream()
                .map(Received::json)
                .filter(event -> event.get("type").asString().equals(type))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + type + " among " + received.size() + " deliveries"))
                .get("data");
    }
}
