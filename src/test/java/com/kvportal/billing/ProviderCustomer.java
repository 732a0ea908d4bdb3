package com.kvportal.billing;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.sandbox.SandboxStandIn;
import com.kvportal.support.Api;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * An organization linked to a provider customer, as its first checkout leaves it, and the provider's news about its
 * one subscription to pro: Stripe's payloads for this customer and subscription, signed and delivered to the webhook.
 */
record ProviderCustomer(
        Api owner,
        Api.Account account,
        String customer,
        String subscriptionId,
        Instant periodStart,
        Instant periodEnd,
        Webhooks webhooks) {

    private static final String PRICE_PRO = SandboxStandIn.PRICE_PRO;

    /**
     * Signs up an organization and links it to a new provider customer; the subscription's 30-day period began
     * {@code periodSoFar} ago, to the second.
     */
    static ProviderCustomer signUp(String baseUrl, JdbcClient jdbc, Duration periodSoFar) {
        Api owner = new Api(baseUrl);
        Api.Account account = owner.signup();
        Instant periodStart = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(periodSoFar);
        return new ProviderCustomer(
                owner,
                account,
                link(jdbc, account),
                "sub_" + StripePayloads.random(),
                periodStart,
                periodStart.plus(Duration.ofDays(30)),
                new Webhooks(baseUrl));
    }

    /** Links the organization to a new provider customer, as a checkout does; answers the customer's id. */
    static String link(JdbcClient jdbc, Api.Account account) {
        String customer = "cus_" + StripePayloads.random();
        jdbc.sql("insert into billing_accounts (organization_id, provider_customer_id, customer_id) values (?, ?, ?)")
                .params(account.organizationId(), customer, account.customerId())
                .update();
        return customer;
    }

    UUID organizationId() {
        return account.organizationId();
    }

    /** The subscription to pro over the period, in this status, not set to cancel. */
    String subscription(String status) {
        return subscription(status, null, false);
    }

    String subscription(String status, @Nullable Instant cancelAt, boolean cancelAtPeriodEnd) {
        return StripePayloads.subscription(
                subscriptionId, customer, status, PRICE_PRO, periodStart, periodEnd, cancelAt, cancelAtPeriodEnd);
    }

    /** The subscription, active over the period, to whatever this price sells. */
    String activeSubscriptionTo(String price) {
        return StripePayloads.subscription(
                subscriptionId, customer, "active", price, periodStart, periodEnd, null, false);
    }

    /** The subscription's {@code type} event, stamped {@code created}. */
    String subscriptionEvent(String type, Instant created, String status) {
        return StripePayloads.event(type, created, subscription(status));
    }

    /** The same subscription as the news of another customer names it. */
    ProviderCustomer withCustomer(String customer) {
        return new ProviderCustomer(owner, account, customer, subscriptionId, periodStart, periodEnd, webhooks);
    }

    /** The same subscription over another period. */
    ProviderCustomer over(Instant periodStart, Instant periodEnd) {
        return new ProviderCustomer(owner, account, customer, subscriptionId, periodStart, periodEnd, webhooks);
    }

    /** A renewal invoice of the subscription for the period, with its one subscription line. */
    String invoice(String id, String status, long amountDue, long amountPaid, int attemptCount, Instant created) {
        return invoice(id, status, "subscription_cycle", amountDue, amountPaid, attemptCount, created, List.of());
    }

    /** An invoice of the subscription for the period: its subscription line, then {@code extraLines}. */
    String invoice(
            String id,
            String status,
            String billingReason,
            long amountDue,
            long amountPaid,
            int attemptCount,
            Instant created,
            List<String> extraLines) {
        return StripePayloads.invoice(
                id,
                customer,
                subscriptionId,
                status,
                billingReason,
                amountDue,
                amountPaid,
                attemptCount,
                created,
                periodStart,
                periodEnd,
                extraLines);
    }

    /** A completed checkout of the subscription, naming this organization's customer account. */
    String completedCheckout(UUID organizationId, String customer) {
        return completedCheckout(StripePayloads.eventId(), organizationId, customer);
    }

    String completedCheckout(String eventId, UUID organizationId, String customer) {
        return StripePayloads.event(
                eventId,
                "checkout.session.completed",
                Instant.now(),
                StripePayloads.checkoutSession(
                        "cs_test_" + StripePayloads.random(),
                        organizationId,
                        account.customerId(),
                        customer,
                        subscriptionId));
    }

    /** Delivers the body signed now, as the provider does. */
    Api.Response deliver(String body) {
        return webhooks.deliver(body);
    }

    /** Delivers the body signed now, and checks that the webhook took it. */
    void deliverOk(String body) {
        Api.Response response = webhooks.deliver(body);
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
    }

    /** The organization's subscription as the portal shows it. */
    JsonNode currentSubscription() {
        Api.Response response = owner.get("/api/v1/billing/subscription");
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return response.json().get("subscription");
    }

    /** The organization's invoices as the portal lists them, newest first. */
    JsonNode invoices() {
        return owner.get("/api/v1/billing/invoices").json().get("invoices");
    }
}
