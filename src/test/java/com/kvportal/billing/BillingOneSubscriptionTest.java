package com.kvportal.billing;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.Concurrently;
import com.kvportal.support.IntegrationTest;
import com.kvportal.support.ProCheckout;
import com.kvportal.support.SandboxEvents;
import com.stripe.exception.StripeException;
import com.stripe.model.Invoice;
import com.stripe.model.InvoicePayment;
import com.stripe.model.Refund;
import com.stripe.model.checkout.Session;
import com.stripe.param.InvoiceListParams;
import com.stripe.param.InvoicePaymentListParams;
import com.stripe.param.RefundListParams;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * One subscription per organization at a time, against the real sandbox through stripe-java: an earlier
 * open session is expired when a checkout starts; a second subscription completed all the same (an old session paid
 * late, in either order, or two paid at once) is canceled at the provider with its payment refunded, audited, and
 * billed nowhere; the public success callback asks the provider only about open sessions the service started.
 */
class BillingOneSubscriptionTest extends IntegrationTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String SESSION_URI = "/sandbox/stripe/v1/checkout/sessions/{id}";

    /** The sandbox's events since this test began: those it waits for. */
    private SandboxEvents events;

    @BeforeEach
    void noteTheStart() {
        events = SandboxEvents.fromNow(jdbc);
    }

    @Autowired
    MeterRegistry meters;

    @Test
    void shouldExpireTheEarlierOpenSessionWhenASecondCheckoutStarts() throws StripeException {
        Api owner = signedUp();
        String first = owner.startCheckout("pro");
        String second = owner.startCheckout("pro");

        assertThat(stripeClient().checkout().sessions().retrieve(first).getStatus())
                .isEqualTo("expired");
        assertThat(stripeClient().checkout().sessions().retrieve(second).getStatus())
                .isEqualTo("open");
        // the hosted page refuses the expired session, as Stripe's does
        Api.Response refused = pay(first);
        assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
        assertThat(refused.json().get("error").get("code").asString()).isEqualTo("session_expired");
        assertThat(follow(pay(second))).isEqualTo("/dashboard/billing?checkout=success");
        assertThat(stripeClient().checkout().sessions().retrieve(first).getSubscription())
                .isNull();
        assertThat(owner.subscription().get("provider_subscription_id").asString())
                .isEqualTo(stripeClient().checkout().sessions().retrieve(second).getSubscription());
    }

    @Test
    void shouldCancelAndRefundAnOldSessionPaidAfterTheSubscriptionIsLive() throws Exception {
        Api owner = api();
        Api.Account account = owner.signup();
        String session = owner.startCheckout("pro");
        assertThat(follow(pay(session))).isEqualTo("/dashboard/billing?checkout=success");
        assertThat(owner.subscription().get("status").asString()).isEqualTo("active");
        // an old session Stripe still keeps open (made before this rule, or its expiry failed), paid late
        String old = oldSession(account);
        assertThat(follow(pay(old))).isEqualTo("/dashboard/billing?checkout=pending");

        assertOneSubscriptionBilledOnce(owner, account, subscriptionOf(session), subscriptionOf(old));
    }

    @Test
    void shouldCancelAndRefundTheServicesOwnSessionWhenAnOldSessionWasPaidFirst() throws Exception {
        TwoOpenSessions org = twoOpenSessions();
        pay(org.old());
        await(
                "the old session's subscription is recorded",
                () -> org.owner().get("/api/v1/billing/subscription").status() == 200);

        follow(pay(org.ours()));

        assertOneSubscriptionBilledOnce(
                org.owner(), org.account(), subscriptionOf(org.old()), subscriptionOf(org.ours()));
    }

    @Test
    void shouldLeaveOneSubscriptionWhenTwoSessionsArePaidAtOnce() throws Exception {
        for (int round = 0; round < 3; round++) {
            TwoOpenSessions org = twoOpenSessions();
            List<String> sessions = List.of(org.ours(), org.old());
            AtomicInteger next = new AtomicInteger();
            // each browser pays and follows the redirect: callbacks and webhooks of both race
            Concurrently.run(2, () -> follow(pay(sessions.get(next.getAndIncrement()))));

            String a = subscriptionOf(sessions.get(0));
            String b = subscriptionOf(sessions.get(1));
            await("one of the two is canceled", () -> {
                String statusA = stripeClient().subscriptions().retrieve(a).getStatus();
                String statusB = stripeClient().subscriptions().retrieve(b).getStatus();
                return statusA.equals("canceled") || statusB.equals("canceled");
            });
            String survivor =
                    stripeClient().subscriptions().retrieve(a).getStatus().equals("canceled") ? b : a;
            assertOneSubscriptionBilledOnce(org.owner(), org.account(), survivor, survivor.equals(a) ? b : a);
        }
    }

    @Test
    void shouldNotAskTheProviderAboutASessionItDidNotStart() throws Exception {
        TwoOpenSessions org = twoOpenSessions();
        String ours = org.ours();
        String notOurs = org.old();
        Api browser = api();
        double before = sessionReads();

        for (String madeUp :
                List.of("cs_test_" + "a".repeat(58), "cs_live_b1c2d3", "cs_" + StripePayloads.random(), notOurs)) {
            Api.Response back = browser.get("/api/v1/billing/checkout/success?session_id=" + madeUp);
            assertThat(back.status()).isEqualTo(303);
            assertThat(back.header("Location")).isEqualTo("/dashboard/billing?checkout=pending");
        }
        assertThat(sessionReads()).isEqualTo(before);

        // an open session of ours is read at the provider (so the count above could have moved)
        assertThat(browser.get("/api/v1/billing/checkout/success?session_id=" + ours)
                        .header("Location"))
                .isEqualTo("/dashboard/billing?checkout=pending");
        await("the provider was asked once", () -> sessionReads() == before + 1);
        // paid and recorded: settled, answered without the provider
        assertThat(follow(pay(ours))).isEqualTo("/dashboard/billing?checkout=success");
        await("the provider was asked again", () -> sessionReads() == before + 2);
        assertThat(browser.get("/api/v1/billing/checkout/success?session_id=" + ours)
                        .header("Location"))
                .isEqualTo("/dashboard/billing?checkout=success");
        Thread.sleep(200);
        assertThat(sessionReads()).isEqualTo(before + 2);
    }

    /**
     * At the provider: the survivor active and not refunded, the duplicate canceled with its one paid invoice
     * refunded in full; here: the survivor is the subscription, one line in the audit log, the organization's
     * invoices bill it once, and nothing of the duplicate ended as a subscription of the organization.
     */
    private void assertOneSubscriptionBilledOnce(Api owner, Api.Account account, String survivor, String duplicate)
            throws Exception {
        await("the duplicate is canceled at the provider", () -> stripeClient()
                .subscriptions()
                .retrieve(duplicate)
                .getStatus()
                .equals("canceled"));
        assertThat(stripeClient().subscriptions().retrieve(survivor).getStatus())
                .isEqualTo("active");
        await("the duplicate's payment is refunded", () -> refunds(duplicate).size() == 1);
        Refund refund = refunds(duplicate).get(0);
        assertThat(refund.getAmount()).isEqualTo(2000L);
        assertThat(refund.getStatus()).isEqualTo("succeeded");
        assertThat(refund.getReason()).isEqualTo("duplicate");
        assertThat(refunds(survivor)).isEmpty();
        events.awaitDelivered(WAIT);

        assertThat(owner.subscription().get("provider_subscription_id").asString())
                .isEqualTo(survivor);
        assertThat(owner.subscription().get("status").asString()).isEqualTo("active");
        List<JsonNode> audit = audit(owner);
        List<JsonNode> canceled = audit.stream()
                .filter(e -> e.get("action").asString().equals("subscription.duplicate_canceled"))
                .toList();
        assertThat(canceled).as(audit.toString()).hasSize(1);
        assertThat(canceled.get(0)
                        .get("details")
                        .get("provider_subscription_id")
                        .asString())
                .isEqualTo(duplicate);
        assertThat(audit.stream().map(e -> e.get("action").asString())).doesNotContain("subscription.ended");
        JsonNode invoices = owner.get("/api/v1/billing/invoices").json().get("invoices");
        assertThat(invoices.size()).as(invoices.toString()).isOne();
        assertThat(invoices.get(0).get("amount_paid_cents").asLong()).isEqualTo(2000);
        assertThat(invoices.get(0).get("subscription_id").asString())
                .isEqualTo(owner.subscription().get("id").asString());
        assertThat(jdbc.sql("select status from subscriptions where provider_subscription_id = ?"
                                + " and duplicate_of is not null and organization_id = ?")
                        .params(duplicate, account.organizationId())
                        .query(String.class)
                        .list())
                .containsExactly("canceled");
    }

    /** The refunds of the payments of the subscription's invoices, as stripe-java reads them. */
    private List<Refund> refunds(String subscription) throws StripeException {
        List<Refund> refunds = new ArrayList<>();
        for (Invoice invoice : stripeClient()
                .invoices()
                .list(InvoiceListParams.builder().setSubscription(subscription).build())
                .getData()) {
            for (InvoicePayment payment : stripeClient()
                    .invoicePayments()
                    .list(InvoicePaymentListParams.builder()
                            .setInvoice(invoice.getId())
                            .build())
                    .getData()) {
                refunds.addAll(stripeClient()
                        .refunds()
                        .list(RefundListParams.builder()
                                .setPaymentIntent(payment.getPayment().getPaymentIntent())
                                .build())
                        .getData());
            }
        }
        return refunds;
    }

    /** A new organization, and two sessions open at the provider for it: its checkout's and an old one. */
    private record TwoOpenSessions(Api owner, Api.Account account, String ours, String old) {}

    private TwoOpenSessions twoOpenSessions() throws StripeException {
        Api owner = api();
        Api.Account account = owner.signup();
        String ours = owner.startCheckout("pro");
        return new TwoOpenSessions(owner, account, ours, oldSession(account));
    }

    /**
     * A session made directly at the provider as the service makes them (same customer, the organization in
     * {@code client_reference_id} and metadata), but one the service does not know as open: an old session Stripe
     * keeps open for 24 hours.
     */
    private String oldSession(Api.Account account) throws StripeException {
        String customer = jdbc.sql("select provider_customer_id from billing_accounts where organization_id = ?")
                .param(account.organizationId())
                .query(String.class)
                .single();
        Session session = stripeClient()
                .checkout()
                .sessions()
                .create(ProCheckout.params(
                                baseUrl(), customer, account.organizationId().toString())
                        .putMetadata("customer_id", account.customerId().toString())
                        .build());
        return session.getId();
    }

    private String subscriptionOf(String session) throws StripeException {
        return stripeClient().checkout().sessions().retrieve(session).getSubscription();
    }

    /** Pays the session on the sandbox's hosted page, as a browser without cookies. */
    private Api.Response pay(String session) {
        return api().payCheckout(session, "succeeded");
    }

    /** Follows the provider's redirect to the success callback; answers where that sends the browser. */
    private String follow(Api.Response paid) {
        assertThat(paid.status()).as(paid.toString()).isEqualTo(303);
        return api().follow(paid).header("Location");
    }

    /** How many reads of a checkout session the sandbox's Stripe API has served. */
    private double sessionReads() {
        return meters.find("http.server.requests").tag("uri", SESSION_URI).timers().stream()
                .mapToDouble(Timer::count)
                .sum();
    }

    private static List<JsonNode> audit(Api api) {
        List<JsonNode> events = new ArrayList<>();
        api.get("/api/v1/audit-events?limit=200").json().get("events").forEach(events::add);
        return events;
    }

    private static void await(String what, Callable<Boolean> condition) {
        Awaitility.await(what).atMost(WAIT).until(condition);
    }
}
