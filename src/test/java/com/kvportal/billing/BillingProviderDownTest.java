package com.kvportal.billing;

import static com.kvportal.billing.StripePayloads.event;
import static com.kvportal.billing.StripePayloads.eventId;
import static com.kvportal.billing.StripePayloads.subscription;
import static com.kvportal.support.Redirects.assertRedirect;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Stripe configured, but unreachable (its API base is a closed port): every call that needs the provider answers
 * 502 {@code payment_provider_unavailable} and leaves nothing half-made behind.
 */
class BillingProviderDownTest extends IntegrationTest {

    private static final String PRICE_PRO = "price_test_pro";

    @DynamicPropertySource
    static void unreachableStripe(DynamicPropertyRegistry registry) {
        registry.add("STRIPE_SECRET_KEY", () -> "sk_test_unreachable");
        registry.add("STRIPE_PRICE_PRO", () -> PRICE_PRO);
        registry.add("PAYMENT_WEBHOOK_SECRET", () -> Webhooks.SECRET);
        registry.add("kvportal.stripe.api-base", () -> "http://127.0.0.1:" + closedPort());
    }

    private static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void assertProviderUnavailable(Api.Response response) {
        assertThat(response.status()).as(response.toString()).isEqualTo(502);
        assertThat(response.code()).isEqualTo("payment_provider_unavailable");
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
    }

    private long billingAccounts(UUID organizationId) {
        return count("select count(*) from billing_accounts where organization_id = ?", organizationId);
    }

    /**
     * An owner with a verified email (checkout needs one; signing up verifies it) and a provider customer, as a first
     * checkout leaves it.
     */
    private ProviderCustomer linkedAndVerified() {
        return ProviderCustomer.signUp(baseUrl(), jdbc, Duration.ZERO);
    }

    /** An organization whose pro subscription the provider's webhook has recorded as active. */
    private ProviderCustomer subscribed() {
        ProviderCustomer org = ProviderCustomer.signUp(baseUrl(), jdbc, Duration.ZERO);
        org.deliverOk(event("customer.subscription.created", Instant.now(), org.activeSubscriptionTo(PRICE_PRO)));
        return org;
    }

    @Test
    void shouldAnswer502ToCheckoutAndRecordNoProviderCustomer() {
        Api session = api();
        Api.Account account = session.signup();

        assertProviderUnavailable(session.post("/api/v1/billing/checkout", Map.of("tier", "pro")));

        assertThat(billingAccounts(account.organizationId())).isZero();
    }

    @Test
    void shouldAnswer502ToCheckoutWhenOnlyTheSessionCannotBeMade() {
        ProviderCustomer org = linkedAndVerified();

        assertProviderUnavailable(org.owner().post("/api/v1/billing/checkout", Map.of("tier", "pro")));

        assertThat(billingAccounts(org.organizationId())).isOne();
        assertThat(org.owner().get("/api/v1/billing/subscription").status()).isEqualTo(404);
    }

    @Test
    void shouldAnswer502ToThePortal() {
        assertProviderUnavailable(linkedAndVerified().owner().post("/api/v1/billing/portal"));
    }

    @Test
    void shouldAnswer502ToCancelAndKeepTheSubscriptionRunning() {
        Api session = subscribed().owner();

        assertProviderUnavailable(session.post("/api/v1/billing/cancel"));

        JsonNode subscription =
                session.get("/api/v1/billing/subscription").json().get("subscription");
        assertThat(subscription.get("cancel_at").isNull()).isTrue();
        assertThat(subscription.get("status").asString()).isEqualTo("active");
        assertThat(subscription.get("plan").get("tier").asString()).isEqualTo("pro");
    }

    @Test
    void shouldAnswer502ToDeletingTheOrganizationAndDeleteNothing() {
        ProviderCustomer org = subscribed();
        Api session = org.owner();
        String key = session.createKey("kept");

        assertProviderUnavailable(session.deleteOrganization());

        assertThat(count(
                        "select count(*) from organizations where id = ? and deleted_at is null", org.organizationId()))
                .isOne();
        assertThat(session.get("/api/v1/billing/subscription")
                        .json()
                        .at("/subscription/status")
                        .asString())
                .isEqualTo("active");
        assertThat(Api.withKey(baseUrl(), key).post("/api/v1/api-keys/verify").status())
                .isEqualTo(200);
    }

    @Test
    void shouldSendTheSuccessCallbackToPendingWhenTheProviderCannotBeAsked() {
        assertRedirect(api().get("/api/v1/billing/checkout/success?session_id=cs_test_a1b2c3"), 303)
                .isEqualTo("/dashboard/billing?checkout=pending");
    }

    @Test
    void shouldAnswer5xxToACheckoutCompletedEventWhileTheProviderCannotBeAskedSoThatItIsRetried() {
        ProviderCustomer org = ProviderCustomer.signUp(baseUrl(), jdbc, Duration.ZERO);
        String id = eventId();

        Api.Response response = org.deliver(org.completedCheckout(id, org.organizationId(), org.customer()));

        assertThat(response.status()).isGreaterThanOrEqualTo(500);
        assertThat(count("select count(*) from processed_webhook_events where event_id = ?", id))
                .isZero();
    }

    /**
     * The provider finalizes a renewal draft once its {@code invoice.created} is answered 2xx, so the period's usage
     * charge must be on the draft before that: the charge is queued with the news, and while it cannot be sent the
     * news answers 502, every delivery again (a duplicate sends the queued charge first), and it stays queued once.
     */
    @Test
    void shouldAnswer502ToEveryDeliveryOfARenewalDraftWhoseUsageChargeCannotBeSentAndQueueItOnce() {
        ProviderCustomer org = ProviderCustomer.signUp(baseUrl(), jdbc, Duration.ofDays(30));
        org.deliverOk(event("customer.subscription.created", Instant.now(), org.activeSubscriptionTo(PRICE_PRO)));
        UUID project = org.owner().createProject("stored");
        jdbc.sql("insert into usage_samples (id, project_id, organization_id, bytes, at) values (?, ?, ?, ?, ?)")
                .params(
                        "sample-" + UUID.randomUUID(),
                        project,
                        org.organizationId(),
                        300L << 30,
                        java.sql.Timestamp.from(Instant.now().minus(Duration.ofDays(30))))
                .update();
        String id = eventId();
        String invoice = "in_" + StripePayloads.random();

        String body = event(
                id,
                "invoice.created",
                Instant.now(),
                org.invoice(invoice, "draft", "subscription_cycle", 2000, 0, 0, Instant.now(), java.util.List.of()));

        assertProviderUnavailable(org.deliver(body));
        assertProviderUnavailable(org.deliver(body));

        assertThat(count(
                        "select count(*) from usage_charge_outbox where organization_id = ? and provider_invoice_id = ?"
                                + " and sent_at is null and quantity > 0",
                        org.organizationId(),
                        invoice))
                .isOne();
        assertThat(count("select count(*) from usage_billed_periods where organization_id = ?", org.organizationId()))
                .isZero();
    }
}
