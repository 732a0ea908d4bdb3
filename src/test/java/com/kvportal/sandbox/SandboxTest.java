package com.kvportal.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.common.PaymentProvider;
import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import com.kvportal.support.ProCheckout;
import com.stripe.exception.StripeException;
import com.stripe.model.Customer;
import com.stripe.model.Invoice;
import com.stripe.model.Subscription;
import com.stripe.model.checkout.Session;
import com.stripe.param.CustomerCreateParams;
import com.stripe.param.InvoiceItemCreateParams;
import com.stripe.param.SubscriptionUpdateParams;
import java.math.BigDecimal;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** What the sandbox's tests share: stripe-java pointed at the sandbox, raw HTTP, and the outbox's state. */
abstract class SandboxTest extends IntegrationTest {

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final String FORM = "application/x-www-form-urlencoded";

    @Autowired
    PaymentProvider provider;

    private @Nullable Api http;

    /** The official client, configured exactly as the billing feature configures it. */
    record Reply(int status, String body, HttpResponse<String> raw) {
        JsonNode json() {
            return JSON.readTree(body);
        }

        @Nullable
        String header(String name) {
            return raw.headers().firstValue(name).orElse(null);
        }

        /** Stripe's {@code error.code}, or {@code error.type} when there is no code. */
        String errorCode() {
            JsonNode error = json().path("error");
            return error.has("code")
                    ? error.get("code").asString()
                    : error.path("type").asString();
        }
    }

    /** Sends as a server or a fresh browser would: through the suite's {@link Api} client, without cookies. */
    Reply send(String method, String path, @Nullable String body, @Nullable String contentType, String... headers) {
        Map<String, String> all = new LinkedHashMap<>();
        if (contentType != null) {
            all.put("Content-Type", contentType);
        }
        for (int i = 0; i + 1 < headers.length; i += 2) {
            all.put(headers[i], headers[i + 1]);
        }
        if (http == null) {
            http = api();
        }
        http.clearCookies();
        Api.Response response = http.sendRaw(
                method,
                path,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body),
                all);
        return new Reply(response.status(), response.body(), response.raw());
    }

    Reply get(String path, String... headers) {
        return send("GET", path, null, null, headers);
    }

    /** A page as a browser asks for it. */
    Reply page(String path) {
        return get(path, "Accept", "text/html,application/xhtml+xml");
    }

    Reply postJson(String path, String json) {
        return send("POST", path, json, "application/json");
    }

    /** A form post as a browser sends it from a page. */
    Reply postForm(String path, String form) {
        return send("POST", path, form, FORM, "Accept", "text/html,application/xhtml+xml");
    }

    Reply stripeApi(String method, String path, @Nullable String form) {
        return send(
                method,
                "/sandbox/stripe" + path,
                form,
                form == null ? null : FORM,
                "Authorization",
                "Bearer " + provider.secretKey());
    }

    /** Moves the subscription to its period's end, with the sandbox's key, as a test clock would. */
    Reply advance(String subscriptionId) {
        return send(
                "POST",
                "/sandbox/subscriptions/" + subscriptionId + "/advance",
                null,
                null,
                "Authorization",
                "Bearer " + provider.secretKey());
    }

    /** Sets the card the customer's next charges meet, with the sandbox's key; the body is JSON. */
    Reply card(String customerId, String json) {
        return send(
                "POST",
                "/sandbox/customers/" + customerId + "/card",
                json,
                "application/json",
                "Authorization",
                "Bearer " + provider.secretKey());
    }

    /** The reply is Stripe's error answer with this status and code. */
    static void assertStripeError(Reply reply, int status, String code) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(status);
        assertThat(reply.errorCode()).isEqualTo(code);
    }

    /** Stripe's API refuses this form post with this code. */
    void assertRefused(String path, @Nullable String form, String code) {
        assertThat(stripeApi("POST", path, form).errorCode())
                .as(path + " " + form)
                .isEqualTo(code);
    }

    /** A new customer with this email, made through stripe-java: its id. */
    String newCustomer(String email) throws StripeException {
        return stripeClient()
                .v1()
                .customers()
                .create(CustomerCreateParams.builder().setEmail(email).build())
                .getId();
    }

    /** A customer and an open checkout session for the pro price, made through stripe-java. */
    Session openCheckout(String email) throws StripeException {
        Customer customer = stripeClient()
                .v1()
                .customers()
                .create(CustomerCreateParams.builder()
                        .setEmail(email)
                        .putMetadata("organization_id", "org-1")
                        .build());
        return stripeClient()
                .v1()
                .checkout()
                .sessions()
                .create(ProCheckout.params(baseUrl(), customer.getId(), "org-1").build());
    }

    /** Pays the session on the hosted checkout page with this JSON body (an outcome, or none). */
    Reply pay(Session session, String json) {
        return postJson("/sandbox/checkout/" + session.getId() + "/pay", json);
    }

    /** The checkout session as the sandbox has it now, through stripe-java. */
    Session checkoutSession(Session session) throws StripeException {
        return stripeClient().v1().checkout().sessions().retrieve(session.getId());
    }

    /** Pays an open session with a succeeding card and answers the id of the new subscription. */
    String payAndSubscribe(Session session) throws StripeException {
        Reply paid = pay(session, "{\"outcome\":\"succeeded\"}");
        assertThat(paid.status()).as(paid.body()).isEqualTo(303);
        return checkoutSession(session).getSubscription();
    }

    /** A customer with an active subscription: theirs and its ids. */
    record Subscribed(String customer, String subscription) {}

    /** A new customer with this email, subscribed through a checkout session paid with a succeeding card. */
    Subscribed subscribed(String email) throws StripeException {
        Session session = openCheckout(email);
        return new Subscribed(session.getCustomer(), payAndSubscribe(session));
    }

    /**
     * An invoice item of storage overage for the customer, as billing adds one: {@code quantity} units at
     * {@code unitAmount} cents each, in usd.
     */
    static InvoiceItemCreateParams.Builder overageItem(String customer, long quantity, BigDecimal unitAmount) {
        return InvoiceItemCreateParams.builder()
                .setCustomer(customer)
                .setQuantity(quantity)
                .setUnitAmountDecimal(unitAmount)
                .setCurrency("usd")
                .setDescription("Storage overage")
                .putMetadata("kind", "storage_overage");
    }

    /** Sets the subscription to cancel at its period's end, through stripe-java. */
    Subscription cancelAtPeriodEnd(String subscriptionId) throws StripeException {
        return stripeClient()
                .v1()
                .subscriptions()
                .update(
                        subscriptionId,
                        SubscriptionUpdateParams.builder()
                                .setCancelAtPeriodEnd(true)
                                .build());
    }

    /**
     * The number of events about one customer (the customer itself, or an object of theirs, {@code data.object}'s
     * {@code id} or {@code customer}), counted once it has held still for 300 ms: what our webhook handler does in
     * answer to an event about them lands before it. Only this test's own customer is counted, never every
     * tenant's events, which webhook deliveries of earlier tests still cause.
     */
    long settledEventCountAbout(String customerId) {
        AtomicLong last = new AtomicLong(-1);
        Awaitility.await("the sandbox's events about " + customerId + " settled")
                .during(Duration.ofMillis(300))
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    long now = eventCountAbout(customerId);
                    return last.getAndSet(now) == now;
                });
        return eventCountAbout(customerId);
    }

    private long eventCountAbout(String customerId) {
        return count("select count(*) from sandbox.sandbox_events where " + ABOUT_CUSTOMER, customerId);
    }

    /** What a call did: its reply, and the types of the events about the customer that came of it. */
    record Caused<T>(T reply, List<String> eventTypes) {}

    /**
     * Runs {@code call} between two settled counts of the events about the customer ({@link #settledEventCountAbout}):
     * its reply with the events it brought, in creation order; none when it changed nothing.
     */
    <T> Caused<T> causedFor(String customerId, Callable<T> call) throws Exception {
        long before = settledEventCountAbout(customerId);
        T reply = call.call();
        settledEventCountAbout(customerId);
        return new Caused<>(reply, eventTypesOfCustomerAfter(customerId, before));
    }

    /** The types of the events about one customer (as {@link #settledEventCountAbout}), in creation order. */
    List<String> eventTypesOfCustomer(String customerId) {
        return eventTypes("where " + ABOUT_CUSTOMER + " order by seq", customerId);
    }

    /** The types of the events about one customer after the first {@code count} of them, in creation order. */
    List<String> eventTypesOfCustomerAfter(String customerId, long count) {
        return eventTypes("where " + ABOUT_CUSTOMER + " order by seq offset ?", customerId, count);
    }

    /** The ids of the events about one customer, in creation order. */
    List<String> eventIdsOfCustomer(String customerId) {
        return jdbc.sql("select id from sandbox.sandbox_events where " + ABOUT_CUSTOMER + " order by seq")
                .param(customerId)
                .query(String.class)
                .list();
    }

    private static final String ABOUT_CUSTOMER =
            "? in (payload::jsonb #>> '{data,object,id}', payload::jsonb #>> '{data,object,customer}')";

    /** The types of the events about one object (their {@code data.object.id}), in creation order. */
    List<String> eventTypesAbout(String objectId) {
        return eventTypes("where payload::jsonb #>> '{data,object,id}' = ? order by seq", objectId);
    }

    private List<String> eventTypes(String whereAndOrder, Object... params) {
        return jdbc.sql("select type from sandbox.sandbox_events " + whereAndOrder)
                .params(params)
                .query(String.class)
                .list();
    }

    /** Waits until the sandbox's invoice has the status (a renewal is finalized after its invoice.created). */
    Invoice awaitInvoice(String invoiceId, String status) throws StripeException {
        await("invoice " + invoiceId + " " + status, Duration.ofSeconds(20), () -> stripeClient()
                .v1()
                .invoices()
                .retrieve(invoiceId)
                .getStatus()
                .equals(status));
        return stripeClient().v1().invoices().retrieve(invoiceId);
    }

    static void await(String what, Duration timeout, Callable<Boolean> condition) {
        Awaitility.await(what)
                .atMost(timeout)
                .pollInterval(Duration.ofMillis(50))
                .until(condition);
    }
}
