package com.kvportal.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.kvportal.common.encryption.SecretBox;
import com.kvportal.support.Concurrently;
import com.kvportal.support.IntegrationTest;
import com.stripe.exception.StripeException;
import com.stripe.model.checkout.Session;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Who may use the sandbox: its Stripe API and its test clock ({@code advance}, {@code card}) take
 * only the sandbox's own key; a made-up {@code sk_test_} key reads nothing and changes nothing. Redirects go
 * nowhere but under the service's base URL.
 */
class SandboxAccessTest extends SandboxTest {

    /** A well-formed test-mode key that is not the sandbox's. */
    private static final String MADE_UP = "sk_test_MadeUpByAnyoneWhoReadsTheDocs";

    private static final String[] MADE_UP_BEARER = {"Authorization", "Bearer " + MADE_UP};

    @Autowired
    SandboxDatabase database;

    @Autowired
    SecretBox box;

    @Test
    void shouldUseTheConfiguredKeyForItsOwnClient() {
        assertThat(provider.secretKey()).isEqualTo(IntegrationTest.SANDBOX_KEY);
    }

    @Test
    void shouldKeepOneGeneratedKeyThatEveryInstanceReadsWhenTheyStartTogether() throws Exception {
        List<String> keys = Concurrently.run(6, () -> SandboxKey.kept(database, box));

        assertThat(keys).allMatch(key -> key.equals(keys.get(0)));
        assertThat(keys.get(0)).matches("sk_test_[0-9A-Za-z]{24}");
        // kept sealed: the row holds no key in clear
        assertThat(jdbc.sql("select key from sandbox.sandbox_api_key")
                        .query(String.class)
                        .list())
                .singleElement()
                .asString()
                .startsWith("enc:")
                .doesNotContain(keys.get(0));
    }

    @Test
    void shouldRefuseAnUnknownSandboxModeAndAWeakConfiguredKey() {
        assertThatThrownBy(() -> properties("yes", ""))
                .hasMessageContaining("SANDBOX")
                .hasMessageContaining("on");
        assertThatThrownBy(() -> properties("", "sk_test_x")).hasMessageContaining("SANDBOX_API_KEY");
        assertThatThrownBy(() -> properties("", "pk_test_0123456789abcdefghij")).hasMessageContaining("sk_test_");
        assertThat(properties("ON", "").forcedOn()).isTrue();
        assertThat(properties("", IntegrationTest.SANDBOX_KEY).forcedOn()).isFalse();
    }

    private static SandboxProperties properties(String mode, String apiKey) {
        return new SandboxProperties(
                mode,
                apiKey,
                "/api/v1/billing/webhook",
                Duration.ofMillis(250),
                Duration.ofSeconds(1),
                Duration.ofSeconds(60),
                Duration.ofHours(1));
    }

    @Test
    void shouldRefuseAMadeUpKeyOnTheEventsAndSayWhichKeyWasRefused() throws StripeException {
        payAndSubscribe(openCheckout("events-owner@example.com"));

        Reply madeUp = get("/sandbox/stripe/v1/events", MADE_UP_BEARER);
        Reply one = get("/sandbox/stripe/v1/events/evt_x", MADE_UP_BEARER);
        Reply right = stripeApi("GET", "/v1/events?limit=1", null);

        assertStripeError(madeUp, 401, "invalid_request_error");
        assertThat(madeUp.json().at("/error/message").asString())
                .isEqualTo("Invalid API Key provided: sk_test_****Docs");
        assertThat(madeUp.body()).doesNotContain("customer").doesNotContain(IntegrationTest.SANDBOX_KEY);
        assertStripeError(one, 401, "invalid_request_error");
        assertThat(right.status()).isEqualTo(200);
        assertThat(right.json().at("/data/0/id").asString()).startsWith("evt_");
    }

    @Test
    void shouldRefuseAMissingKeyAnAlmostRightKeyAndALiveKey() {
        String key = IntegrationTest.SANDBOX_KEY;
        String almost = key.substring(0, key.length() - 1) + (key.endsWith("A") ? "B" : "A");

        assertStripeError(get("/sandbox/stripe/v1/events"), 401, "invalid_request_error");
        assertStripeError(
                get("/sandbox/stripe/v1/events", "Authorization", "Bearer " + almost), 401, "invalid_request_error");
        assertStripeError(
                get("/sandbox/stripe/v1/events", "Authorization", "Bearer " + key + "x"), 401, "invalid_request_error");
        assertStripeError(
                get("/sandbox/stripe/v1/events", "Authorization", "Bearer sk_live_x"), 401, "invalid_request_error");
        assertStripeError(get("/sandbox/stripe/v1/events", "Authorization", key), 401, "invalid_request_error");
    }

    @Test
    void shouldNotLetAMadeUpKeyCancelAnotherTenantsSubscription() throws StripeException {
        Subscribed subscribed = subscribed("cancel-victim@example.com");
        String subscriptionId = subscribed.subscription();
        long before = settledEventCountAbout(subscribed.customer());

        Reply cancel = send("DELETE", "/sandbox/stripe/v1/subscriptions/" + subscriptionId, null, null, MADE_UP_BEARER);
        Reply update = send(
                "POST",
                "/sandbox/stripe/v1/subscriptions/" + subscriptionId,
                "cancel_at_period_end=true",
                FORM,
                MADE_UP_BEARER);

        assertStripeError(cancel, 401, "invalid_request_error");
        assertStripeError(update, 401, "invalid_request_error");
        assertThat(stripeClient().v1().subscriptions().retrieve(subscriptionId).getStatus())
                .isEqualTo("active");
        assertThat(stripeClient().v1().subscriptions().retrieve(subscriptionId).getCancelAtPeriodEnd())
                .isFalse();
        assertThat(settledEventCountAbout(subscribed.customer())).isEqualTo(before);
    }

    @Test
    void shouldNotLetAMadeUpKeyAddInvoiceItems() throws StripeException {
        Session session = openCheckout("items-victim@example.com");
        payAndSubscribe(session);
        long items =
                count("select count(*) from sandbox.sandbox_invoice_items where customer = ?", session.getCustomer());

        Reply item = send(
                "POST",
                "/sandbox/stripe/v1/invoiceitems",
                "customer=" + session.getCustomer() + "&quantity=1&unit_amount_decimal=100000&currency=usd",
                FORM,
                MADE_UP_BEARER);

        assertStripeError(item, 401, "invalid_request_error");
        assertThat(count(
                        "select count(*) from sandbox.sandbox_invoice_items where customer = ?", session.getCustomer()))
                .isEqualTo(items);
    }

    @Test
    void shouldNotLetAMadeUpKeyOrNoKeyAdvanceASubscriptionOrDeclineACard() throws StripeException {
        Subscribed subscribed = subscribed("clock-victim@example.com");
        long periodEnd = periodEnd(subscribed.subscription());
        long before = settledEventCountAbout(subscribed.customer());

        Reply advance = send(
                "POST", "/sandbox/subscriptions/" + subscribed.subscription() + "/advance", null, null, MADE_UP_BEARER);
        Reply advanceWithout =
                send("POST", "/sandbox/subscriptions/" + subscribed.subscription() + "/advance", null, null);
        Reply card = send(
                "POST",
                "/sandbox/customers/" + subscribed.customer() + "/card",
                "{\"outcome\":\"card_declined\"}",
                "application/json",
                MADE_UP_BEARER);
        Reply cardForm = send(
                "POST",
                "/sandbox/customers/" + subscribed.customer() + "/card",
                "outcome=card_declined",
                FORM,
                "Accept",
                "text/html");

        assertStripeError(advance, 401, "invalid_request_error");
        assertThat(advance.json().at("/error/message").asString()).startsWith("Invalid API Key provided: sk_test_****");
        assertStripeError(advanceWithout, 401, "invalid_request_error");
        assertStripeError(card, 401, "invalid_request_error");
        assertStripeError(cardForm, 401, "invalid_request_error");
        assertThat(periodEnd(subscribed.subscription())).isEqualTo(periodEnd);
        assertThat(count(
                        "select count(*) from sandbox.sandbox_customers where id = ? and card_outcome = 'card_declined'",
                        subscribed.customer()))
                .isZero();
        assertThat(settledEventCountAbout(subscribed.customer())).isEqualTo(before);
    }

    @Test
    void shouldLetTheRightKeyAdvanceAndSetTheCardAsBearerOrBasicAuth() throws StripeException {
        Subscribed subscribed = subscribed("clock-owner@example.com");
        long periodEnd = periodEnd(subscribed.subscription());
        String basic = Base64.getEncoder().encodeToString((IntegrationTest.SANDBOX_KEY + ":").getBytes());

        Reply card = send(
                "POST",
                "/sandbox/customers/" + subscribed.customer() + "/card",
                "outcome=succeeded",
                FORM,
                "Authorization",
                "Basic " + basic);
        Reply advance = advance(subscribed.subscription());

        assertThat(card.status()).as(card.body()).isEqualTo(200);
        assertThat(advance.status()).as(advance.body()).isEqualTo(200);
        assertThat(periodEnd(subscribed.subscription())).isGreaterThan(periodEnd);
    }

    @Test
    void shouldKeepTheHostedPagesOpenWithoutAKey() throws StripeException {
        Session session = openCheckout("hosted-pages@example.com");

        assertThat(page("/sandbox/checkout/" + session.getId()).status()).isEqualTo(200);
        assertThat(pay(session, "{}").status()).isEqualTo(303);
    }

    @Test
    void shouldRefuseRedirectUrlsOutsideTheBaseUrl() throws StripeException {
        String ok = baseUrl() + "/api/v1/billing/checkout/success?session_id={CHECKOUT_SESSION_ID}";
        String session = "mode=subscription&line_items[0][price]=price_sandbox_pro&customer_email=r%40example.com";
        String customer = stripeClient()
                .v1()
                .customers()
                .create(com.stripe.param.CustomerCreateParams.builder().build())
                .getId();
        long sessions = count("select count(*) from sandbox.sandbox_checkout_sessions");
        long portals = count("select count(*) from sandbox.sandbox_portal_sessions");

        assertRedirectRefused("/v1/checkout/sessions", session + "&success_url=https://evil.example/", "success_url");
        assertRedirectRefused(
                "/v1/checkout/sessions",
                session + "&success_url=" + ok + "&cancel_url=http://127.0.0.1:" + (port + 1) + "/",
                "cancel_url");
        assertRedirectRefused(
                "/v1/checkout/sessions", session + "&success_url=" + baseUrl() + "@evil.example/x", "success_url");
        assertRedirectRefused("/v1/checkout/sessions", session + "&success_url=//evil.example/x", "success_url");
        assertRedirectRefused(
                "/v1/billing_portal/sessions",
                "customer=" + customer + "&return_url=https://127.0.0.1:" + port + "/dashboard",
                "return_url");
        assertRedirectRefused(
                "/v1/billing_portal/sessions",
                "customer=" + customer + "&return_url=http://localhost.evil.example:" + port + "/dashboard",
                "return_url");

        assertThat(stripeApi("POST", "/v1/checkout/sessions", session + "&success_url=https://evil.example/")
                        .json()
                        .at("/error/message")
                        .asString())
                .contains("under " + baseUrl());
        assertThat(count("select count(*) from sandbox.sandbox_checkout_sessions"))
                .isEqualTo(sessions);
        assertThat(count("select count(*) from sandbox.sandbox_portal_sessions"))
                .isEqualTo(portals);
        assertThat(stripeApi(
                                "POST",
                                "/v1/billing_portal/sessions",
                                "customer=" + customer + "&return_url=" + baseUrl() + "/dashboard")
                        .status())
                .isEqualTo(200);
    }

    private void assertRedirectRefused(String path, String form, String param) {
        Reply reply = stripeApi("POST", path, form);
        assertThat(reply.status()).as(form + " -> " + reply.body()).isEqualTo(400);
        assertThat(reply.json().at("/error/type").asString()).isEqualTo("invalid_request_error");
        assertThat(reply.json().at("/error/param").asString()).isEqualTo(param);
        assertThat(reply.json().at("/error/message").asString()).contains(param);
    }

    private long periodEnd(String subscriptionId) throws StripeException {
        return stripeClient()
                .v1()
                .subscriptions()
                .retrieve(subscriptionId)
                .getItems()
                .getData()
                .get(0)
                .getCurrentPeriodEnd();
    }
}
