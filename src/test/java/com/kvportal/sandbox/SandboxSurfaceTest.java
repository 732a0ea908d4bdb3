package com.kvportal.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Concurrently;
import com.stripe.exception.StripeException;
import com.stripe.model.Invoice;
import com.stripe.model.Subscription;
import com.stripe.model.SubscriptionItem;
import com.stripe.model.checkout.Session;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The sandbox's scriptable surface: pay, advance, card, with the events Stripe would send. */
class SandboxSurfaceTest extends SandboxTest {

    private long subscriptionsOf(String customer) {
        return count("select count(*) from sandbox.sandbox_subscriptions where customer = ?", customer);
    }

    @Test
    void shouldCreateOneSubscriptionWhenTheSameSessionIsPaidConcurrently() throws Exception {
        Session session = openCheckout("concurrent@example.com");

        Caused<List<Reply>> paid =
                causedFor(session.getCustomer(), () -> Concurrently.run(4, () -> pay(session, "{}")));

        assertThat(paid.reply()).extracting(Reply::status).containsOnly(303);
        assertThat(subscriptionsOf(session.getCustomer())).isEqualTo(1L);
        assertThat(paid.eventTypes()).hasSize(6);
    }

    @Test
    void shouldCompleteTheSessionWithCustomerSubscriptionInvoiceAndEventsInStripesOrder() throws Exception {
        Session session = openCheckout("order@example.com");

        Caused<Reply> paid = causedFor(session.getCustomer(), () -> pay(session, "{}"));

        assertThat(paid.reply().status()).isEqualTo(303);
        assertThat(paid.reply().header("Location")).endsWith("session_id=" + session.getId());
        assertThat(paid.eventTypes())
                .containsExactly(
                        "customer.subscription.created",
                        "invoice.created",
                        "invoice.finalized",
                        "invoice.paid",
                        "invoice.payment_succeeded",
                        "checkout.session.completed");
    }

    @Test
    void shouldCreateACustomerWhenTheSessionHasNone() throws StripeException {
        Reply created = stripeApi(
                "POST",
                "/v1/checkout/sessions",
                "mode=subscription&customer_email=new%40example.com&line_items[0][price]=price_sandbox_pro"
                        + "&success_url=" + baseUrl() + "/ok?id={CHECKOUT_SESSION_ID}");
        String id = created.json().get("id").asString();

        Reply paid = send("POST", "/sandbox/checkout/" + id + "/pay", "outcome=succeeded", FORM);

        assertThat(paid.status()).isEqualTo(303);
        assertThat(paid.header("Location")).isEqualTo(baseUrl() + "/ok?id=" + id);
        Session complete = stripeClient().v1().checkout().sessions().retrieve(id);
        assertThat(complete.getCustomer()).startsWith("cus_");
        assertThat(stripeClient()
                        .v1()
                        .customers()
                        .retrieve(complete.getCustomer())
                        .getEmail())
                .isEqualTo("new@example.com");
        assertThat(eventTypesOfCustomer(complete.getCustomer()))
                .startsWith("customer.created", "customer.subscription.created");
    }

    @Test
    void shouldAnswer402AndChangeNothingWhenTheCardIsDeclined() throws Exception {
        Session session = openCheckout("declined@example.com");

        Caused<Reply> declined =
                causedFor(session.getCustomer(), () -> pay(session, "{\"outcome\":\"card_declined\"}"));

        assertStripeError(declined.reply(), 402, "card_declined");
        assertThat(declined.reply().json().at("/error/type").asString()).isEqualTo("card_error");
        assertThat(declined.eventTypes()).isEmpty();
        Session still = checkoutSession(session);
        assertThat(still.getStatus()).isEqualTo("open");
        assertThat(still.getPaymentStatus()).isEqualTo("unpaid");
        assertThat(still.getSubscription()).isNull();
    }

    @Test
    void shouldRedirectAgainWithoutNewEffectsWhenACompleteSessionIsPaidAgain() throws StripeException {
        Session session = openCheckout("twice@example.com");
        Reply first = pay(session, "{}");
        long events = settledEventCountAbout(session.getCustomer());

        Reply second = pay(session, "{}");
        Reply declinedAfter = pay(session, "{\"outcome\":\"card_declined\"}");

        assertThat(second.status()).isEqualTo(303);
        assertThat(second.header("Location")).isEqualTo(first.header("Location"));
        assertThat(declinedAfter.status()).isEqualTo(303);
        assertThat(settledEventCountAbout(session.getCustomer())).isEqualTo(events);
        assertThat(subscriptionsOf(session.getCustomer())).isEqualTo(1L);
    }

    @Test
    void shouldAnswer404ForAnUnknownSessionAnd400ForAnUnknownOutcome() throws StripeException {
        Session session = openCheckout("outcome@example.com");

        Reply unknown = postJson("/sandbox/checkout/cs_test_nope/pay", "{}");
        Reply badOutcome = pay(session, "{\"outcome\":\"maybe\"}");
        Reply badJson = pay(session, "{outcome");

        assertStripeError(unknown, 404, "resource_missing");
        assertThat(badOutcome.status()).isEqualTo(400);
        assertThat(badOutcome.json().at("/error/param").asString()).isEqualTo("outcome");
        assertThat(badJson.status()).isEqualTo(400);
        assertThat(checkoutSession(session).getStatus()).isEqualTo("open");
    }

    @Test
    void shouldRenewWithADraftThatIsPaidOnceItsInvoiceCreatedIsAnswered() throws StripeException {
        String subscriptionId = payAndSubscribe(openCheckout("renew@example.com"));
        SubscriptionItem first = stripeClient()
                .v1()
                .subscriptions()
                .retrieve(subscriptionId)
                .getItems()
                .getData()
                .get(0);

        Reply advanced = advance(subscriptionId);

        assertThat(advanced.status()).isEqualTo(200);
        JsonNode item = advanced.json().at("/items/data/0");
        assertThat(item.get("current_period_start").asLong()).isEqualTo(first.getCurrentPeriodEnd());
        assertThat(item.get("current_period_end").asLong())
                .isEqualTo(Instant.ofEpochSecond(first.getCurrentPeriodStart())
                        .atZone(ZoneOffset.UTC)
                        .plusMonths(2)
                        .toEpochSecond());
        assertThat(advanced.json().get("status").asString()).isEqualTo("active");
        String invoiceId = advanced.json().get("latest_invoice").asString();
        // the billing webhook answers invoice.created 2xx: the draft is then finalized and charged
        Invoice renewal = awaitInvoice(invoiceId, "paid");
        assertThat(eventTypesAbout(invoiceId))
                .containsExactly("invoice.created", "invoice.finalized", "invoice.paid", "invoice.payment_succeeded");
        assertThat(eventTypesAbout(subscriptionId))
                .containsExactly("customer.subscription.created", "customer.subscription.updated");
        assertThat(renewal.getBillingReason()).isEqualTo("subscription_cycle");
        assertThat(renewal.getPeriodStart()).isEqualTo(first.getCurrentPeriodStart());
        assertThat(renewal.getPeriodEnd()).isEqualTo(first.getCurrentPeriodEnd());
        assertThat(renewal.getAmountPaid()).isEqualTo(2000L);
        assertThat(renewal.getLines().getData().get(0).getPeriod().getStart()).isEqualTo(first.getCurrentPeriodEnd());
        assertThat(stripeClient().v1().subscriptions().retrieve(subscriptionId).getStatus())
                .isEqualTo("active");
    }

    @Test
    void shouldGoPastDueOnADeclinedRenewalAndRecoverWhenTheCardIsFixed() throws StripeException {
        Subscribed subscribed = subscribed("past-due@example.com");
        String subscriptionId = subscribed.subscription();
        String customerId = subscribed.customer();

        Reply declining = card(customerId, "{\"outcome\":\"card_declined\"}");
        assertThat(declining.status()).isEqualTo(200);
        assertThat(declining.json().get("outcome").asString()).isEqualTo("card_declined");

        Reply advanced = advance(subscriptionId);

        assertThat(advanced.status()).isEqualTo(200);
        String invoiceId = advanced.json().get("latest_invoice").asString();
        await("the declined renewal", Duration.ofSeconds(20), () -> stripeClient()
                .v1()
                .subscriptions()
                .retrieve(subscriptionId)
                .getStatus()
                .equals("past_due"));
        assertThat(eventTypesAbout(invoiceId))
                .containsExactly("invoice.created", "invoice.finalized", "invoice.payment_failed");
        assertThat(eventTypesAbout(subscriptionId))
                .containsExactly(
                        "customer.subscription.created",
                        "customer.subscription.updated",
                        "customer.subscription.updated");
        Invoice failed = stripeClient().v1().invoices().retrieve(invoiceId);
        assertThat(failed.getStatus()).isEqualTo("open");
        assertThat(failed.getAttemptCount()).isEqualTo(1L);
        assertThat(failed.getAmountRemaining()).isEqualTo(2000L);
        long beforeFix = settledEventCountAbout(customerId);

        Reply fixed = send(
                "POST",
                "/sandbox/customers/" + customerId + "/card",
                "outcome=succeeded",
                FORM,
                "Authorization",
                "Bearer " + provider.secretKey());

        assertThat(fixed.status()).isEqualTo(200);
        assertThat(fixed.json().at("/paid_invoices/0").asString()).isEqualTo(invoiceId);
        assertThat(fixed.json().at("/reactivated_subscriptions/0").asString()).isEqualTo(subscriptionId);
        assertThat(eventTypesOfCustomerAfter(customerId, beforeFix))
                .containsExactly("invoice.paid", "invoice.payment_succeeded", "customer.subscription.updated");
        assertThat(stripeClient().v1().invoices().retrieve(invoiceId).getStatus())
                .isEqualTo("paid");
        assertThat(stripeClient().v1().invoices().retrieve(invoiceId).getAttemptCount())
                .isEqualTo(2L);
        assertThat(stripeClient().v1().subscriptions().retrieve(subscriptionId).getStatus())
                .isEqualTo("active");
    }

    @Test
    void shouldEndASubscriptionSetToCancelAtPeriodEndWhenAdvanced() throws StripeException {
        Subscribed subscribed = subscribed("ends@example.com");
        Subscription canceling = cancelAtPeriodEnd(subscribed.subscription());
        long before = settledEventCountAbout(subscribed.customer());

        Reply advanced = advance(subscribed.subscription());

        assertThat(advanced.status()).isEqualTo(200);
        assertThat(advanced.json().get("status").asString()).isEqualTo("canceled");
        assertThat(advanced.json().get("ended_at").asLong()).isEqualTo(canceling.getCancelAt());
        assertThat(eventTypesOfCustomerAfter(subscribed.customer(), before))
                .containsExactly("customer.subscription.deleted");

        Reply again = advance(subscribed.subscription());
        assertStripeError(again, 400, "subscription_ended");
        assertThat(settledEventCountAbout(subscribed.customer())).isEqualTo(before + 1);
    }

    @Test
    void shouldAnswer404ForUnknownSubscriptionsAndCustomersAnd400ForAMissingOutcome() throws StripeException {
        Session session = openCheckout("surface-errors@example.com");

        Reply advance = advance("sub_nope");
        Reply card = card("cus_nope", "{\"outcome\":\"succeeded\"}");
        Reply noOutcome = card(session.getCustomer(), "{}");
        Reply badOutcome = card(session.getCustomer(), "{\"outcome\":1}");

        assertStripeError(advance, 404, "resource_missing");
        assertThat(card.status()).isEqualTo(404);
        assertStripeError(noOutcome, 400, "parameter_missing");
        assertStripeError(badOutcome, 400, "parameter_invalid");
    }
}
