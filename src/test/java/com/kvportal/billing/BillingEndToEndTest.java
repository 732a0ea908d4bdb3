package com.kvportal.billing;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.Concurrently;
import com.kvportal.support.IntegrationTest;
import com.kvportal.support.SandboxEvents;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * The whole billing story on the default configuration: the real stripe-java client talking to the built-in
 * sandbox, whose signed events reach the real webhook. Signup, checkout, pay, a renewal whose card is declined,
 * a good card, the portal, cancellation at period end and the end of the subscription.
 */
class BillingEndToEndTest extends IntegrationTest {

    private static final Duration WEBHOOK_WAIT = Duration.ofSeconds(20);

    /** The sandbox's events since this test began: those it waits for. */
    private SandboxEvents events;

    @BeforeEach
    void noteTheStart() {
        events = SandboxEvents.fromNow(jdbc);
    }

    @Autowired
    Billing billing;

    @Test
    void shouldTakeAnOrganizationFromCheckoutThroughRenewalsToTheEndOfItsSubscription() {
        Api owner = api();
        Api.Account account = owner.signup();
        Api browser = api();

        // checkout: a provider session at the sandbox's hosted page
        Api.Response checkout = owner.post("/api/v1/billing/checkout", Map.of("tier", "pro"));
        assertThat(checkout.status()).as(checkout.toString()).isEqualTo(200);
        String sessionId = checkout.json().get("session_id").asString();
        String url = checkout.json().get("url").asString();
        assertThat(sessionId).startsWith("cs_");
        assertThat(url).isEqualTo(baseUrl() + "/sandbox/checkout/" + sessionId);
        assertThat(browser.get(url.substring(baseUrl().length())).status()).isEqualTo(200);

        // not paid yet: the callback says pending and records nothing
        assertThat(browser.get("/api/v1/billing/checkout/success?session_id=" + sessionId)
                        .header("Location"))
                .isEqualTo("/dashboard/billing?checkout=pending");
        assertThat(owner.get("/api/v1/billing/subscription").status()).isEqualTo(404);

        // a declined card leaves the session open
        Api.Response declined = browser.payCheckout(sessionId, "card_declined");
        assertThat(declined.status()).isEqualTo(402);
        assertThat(owner.get("/api/v1/billing/subscription").status()).isEqualTo(404);

        // pay, then follow the provider's redirect to the success callback
        Api.Response paid = browser.payCheckout(sessionId, "succeeded");
        assertThat(paid.status()).as(paid.toString()).isEqualTo(303);
        String callback = paid.header("Location");
        assertThat(callback).isEqualTo(baseUrl() + "/api/v1/billing/checkout/success?session_id=" + sessionId);
        Api.Response back = browser.follow(paid);
        assertThat(back.status()).isEqualTo(303);
        assertThat(back.header("Location")).isEqualTo("/dashboard/billing?checkout=success");

        // the callback itself recorded the subscription, whether or not the webhook was there first
        JsonNode subscription = owner.subscription();
        assertThat(subscription.get("status").asString()).isEqualTo("active");
        assertThat(subscription.get("plan").get("tier").asString()).isEqualTo("pro");
        assertThat(subscription.get("organization_id").asString())
                .isEqualTo(account.organizationId().toString());
        assertThat(subscription.get("customer_id").asString())
                .isEqualTo(account.customerId().toString());
        assertThat(subscription.get("cancel_at").isNull()).isTrue();
        String customer = subscription.get("provider_customer_id").asString();
        String subscriptionId = subscription.get("provider_subscription_id").asString();
        assertThat(customer).startsWith("cus_");
        assertThat(subscriptionId).startsWith("sub_");
        Instant periodEnd = Instant.parse(subscription.get("current_period_end").asString());
        assertThat(periodEnd).isAfter(Instant.now().plus(Duration.ofDays(27)));
        assertThat(billing.effectivePlan(account.organizationId()).tier()).isEqualTo(Tier.PRO);

        // the webhook brings the paid first invoice
        await(
                "the first invoice is paid",
                () -> invoices(owner).size() == 1
                        && invoices(owner).get(0).get("status").asString().equals("paid"));
        JsonNode firstInvoice = invoices(owner).get(0);
        assertThat(firstInvoice.get("amount_paid_cents").asLong()).isEqualTo(2000);
        assertThat(firstInvoice.get("provider_invoice_id").asString()).startsWith("in_");
        assertThat(firstInvoice.get("subscription_id").asString())
                .isEqualTo(subscription.get("id").asString());
        events.awaitDelivered(WEBHOOK_WAIT);

        // the callback again, after the webhook: harmless
        Api.Response again = browser.follow(paid);
        assertThat(again.header("Location")).isEqualTo("/dashboard/billing?checkout=success");
        assertThat(subscriptionRows(account)).isOne();
        assertThat(owner.subscription().get("id").asString())
                .isEqualTo(subscription.get("id").asString());
        assertThat(owner.subscription().get("status").asString()).isEqualTo("active");

        // one live pro subscription: no second checkout
        Api.Response second = owner.post("/api/v1/billing/checkout", Map.of("tier", "pro"));
        assertThat(second.status()).isEqualTo(409);
        assertThat(second.code()).isEqualTo("already_subscribed");

        // a renewal meets a declined card: invoice open, subscription past due (still pro)
        Api.Response card =
                sandbox().post("/sandbox/customers/" + customer + "/card", Map.of("outcome", "card_declined"));
        assertThat(card.status()).as(card.toString()).isEqualTo(200);
        Api.Response advanced = sandbox().post("/sandbox/subscriptions/" + subscriptionId + "/advance");
        assertThat(advanced.status()).as(advanced.toString()).isEqualTo(200);
        await(
                "the renewal fails",
                () -> owner.subscription().get("status").asString().equals("past_due")
                        && invoices(owner).size() == 2
                        && invoices(owner).get(0).get("status").asString().equals("open"));
        JsonNode failed = invoices(owner).get(0);
        assertThat(failed.get("attempt_count").asInt()).isGreaterThanOrEqualTo(1);
        assertThat(failed.get("amount_paid_cents").asLong()).isZero();
        assertThat(billing.effectivePlan(account.organizationId()).tier()).isEqualTo(Tier.PRO);
        events.awaitDelivered(WEBHOOK_WAIT);
        Instant renewedEnd =
                Instant.parse(owner.subscription().get("current_period_end").asString());
        assertThat(renewedEnd).isAfter(periodEnd);

        // a good card pays the open invoice: active again
        card = sandbox().post("/sandbox/customers/" + customer + "/card", Map.of("outcome", "succeeded"));
        assertThat(card.status()).as(card.toString()).isEqualTo(200);
        await(
                "the open invoice is paid",
                () -> owner.subscription().get("status").asString().equals("active")
                        && invoices(owner).get(0).get("status").asString().equals("paid"));
        assertThat(invoices(owner).get(0).get("provider_invoice_id").asString())
                .isEqualTo(failed.get("provider_invoice_id").asString());
        events.awaitDelivered(WEBHOOK_WAIT);

        // the provider's customer portal
        Api.Response portal = owner.post("/api/v1/billing/portal");
        assertThat(portal.status()).as(portal.toString()).isEqualTo(200);
        String portalUrl = portal.json().get("url").asString();
        assertThat(portalUrl).startsWith(baseUrl() + "/sandbox/portal/bps_");
        assertThat(browser.get(portalUrl.substring(baseUrl().length())).status())
                .isEqualTo(200);

        // cancel at period end, twice
        Api.Response canceled = owner.post("/api/v1/billing/cancel");
        assertThat(canceled.status()).as(canceled.toString()).isEqualTo(200);
        JsonNode scheduled = canceled.json().get("subscription");
        assertThat(scheduled.get("cancel_at").asString())
                .isEqualTo(scheduled.get("current_period_end").asString());
        assertThat(scheduled.get("status").asString()).isEqualTo("active");
        Api.Response canceledAgain = owner.post("/api/v1/billing/cancel");
        assertThat(canceledAgain.status()).isEqualTo(200);
        assertThat(canceledAgain.json().get("subscription").get("cancel_at")).isEqualTo(scheduled.get("cancel_at"));
        events.awaitDelivered(WEBHOOK_WAIT);
        assertThat(owner.subscription().get("cancel_at")).isEqualTo(scheduled.get("cancel_at"));

        // the period ends: the subscription is over and the organization is on free
        advanced = sandbox().post("/sandbox/subscriptions/" + subscriptionId + "/advance");
        assertThat(advanced.status()).as(advanced.toString()).isEqualTo(200);
        await(
                "the subscription ends",
                () -> owner.get("/api/v1/billing/subscription").status() == 404);
        Api.Response gone = owner.get("/api/v1/billing/subscription");
        assertThat(gone.code()).isEqualTo("subscription_not_found");
        assertThat(billing.effectivePlan(account.organizationId()).tier()).isEqualTo(Tier.FREE);
        assertThat(single(
                        String.class,
                        "select status from subscriptions where provider_subscription_id = ?",
                        subscriptionId))
                .isEqualTo("canceled");
        events.awaitDelivered(WEBHOOK_WAIT);

        // the old success callback cannot bring it back
        browser.follow(paid);
        assertThat(owner.get("/api/v1/billing/subscription").status()).isEqualTo(404);
        assertThat(billing.effectivePlan(account.organizationId()).tier()).isEqualTo(Tier.FREE);
        // the same customer is reused for a new checkout
        Api.Response renewed = owner.post("/api/v1/billing/checkout", Map.of("tier", "pro"));
        assertThat(renewed.status()).as(renewed.toString()).isEqualTo(200);
        assertThat(billingAccounts(account)).containsExactly(customer);
    }

    @Test
    void shouldActivateTheSubscriptionThroughTheWebhookAloneWhenTheCustomerNeverComesBack() {
        Api owner = api();
        Api.Account account = owner.signup();
        String sessionId = owner.startCheckout("pro");

        // paid, but the browser never follows the redirect to the success callback
        Api.Response paid = api().payCheckout(sessionId, "succeeded");
        assertThat(paid.status()).isEqualTo(303);

        await(
                "the webhook records the subscription",
                () -> owner.get("/api/v1/billing/subscription").status() == 200);
        events.awaitDelivered(WEBHOOK_WAIT);
        JsonNode subscription = owner.subscription();
        assertThat(subscription.get("status").asString()).isEqualTo("active");
        assertThat(subscription.get("plan").get("tier").asString()).isEqualTo("pro");
        assertThat(subscriptionRows(account)).isOne();
        assertThat(invoices(owner).get(0).get("status").asString()).isEqualTo("paid");
        assertThat(billing.effectivePlan(account.organizationId()).tier()).isEqualTo(Tier.PRO);
        // and the callback, late, is harmless
        assertThat(api().get("/api/v1/billing/checkout/success?session_id=" + sessionId)
                        .header("Location"))
                .isEqualTo("/dashboard/billing?checkout=success");
        assertThat(subscriptionRows(account)).isOne();
    }

    @Test
    void shouldGiveAnOrganizationOneProviderCustomerUnderConcurrentCheckouts() throws Exception {
        Api owner = api();
        Api.Account account = owner.signup();
        int checkouts = 6;
        Set<String> sessions = new HashSet<>();
        for (Api.Response response :
                Concurrently.run(checkouts, () -> owner.post("/api/v1/billing/checkout", Map.of("tier", "pro")))) {
            assertThat(response.status()).as(response.toString()).isEqualTo(200);
            sessions.add(response.json().get("session_id").asString());
        }
        assertThat(sessions).hasSize(checkouts);
        assertThat(billingAccounts(account)).hasSize(1);
    }

    @Test
    void shouldRecordTheSubscriptionOfTheOrganizationInTheProvidersSessionWhoeverCallsBack() {
        Api a = api();
        Api.Account accountA = a.signup();
        Api b = signedUp();
        String sessionId = a.startCheckout("pro");
        Api browser = api();
        assertThat(browser.payCheckout(sessionId, "succeeded").status()).isEqualTo(303);

        // organization b's signed-in customer follows a's callback link
        Api.Response back = b.get("/api/v1/billing/checkout/success?session_id=" + sessionId);

        assertThat(back.status()).isEqualTo(303);
        assertThat(b.get("/api/v1/billing/subscription").status()).isEqualTo(404);
        assertThat(a.subscription().get("organization_id").asString())
                .isEqualTo(accountA.organizationId().toString());
        events.awaitDelivered(WEBHOOK_WAIT);
        assertThat(b.get("/api/v1/billing/invoices").json().get("invoices").size())
                .isZero();
        assertThat(invoices(a).size()).isOne();
    }

    private static JsonNode invoices(Api api) {
        return api.get("/api/v1/billing/invoices").json().get("invoices");
    }

    private long subscriptionRows(Api.Account account) {
        return count("select count(*) from subscriptions where organization_id = ?", account.organizationId());
    }

    private List<String> billingAccounts(Api.Account account) {
        return jdbc.sql("select provider_customer_id from billing_accounts where organization_id = ?")
                .param(account.organizationId())
                .query(String.class)
                .list();
    }

    private static void await(String what, Callable<Boolean> condition) {
        Awaitility.await(what).atMost(WEBHOOK_WAIT).until(condition);
    }
}
