package com.kvportal.billing;

import static com.kvportal.billing.StripePayloads.event;
import static com.kvportal.billing.StripePayloads.eventId;
import static com.kvportal.billing.StripePayloads.invoice;
import static com.kvportal.billing.StripePayloads.subscription;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.sandbox.SandboxStandIn;
import com.kvportal.support.Api;
import com.kvportal.support.Concurrently;
import com.kvportal.support.IntegrationTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** The webhook: its signature check, exactly-once and in-order application, and each event's effect. */
class BillingWebhookTest extends IntegrationTest {

    private static final String PRICE_PRO = SandboxStandIn.PRICE_PRO;
    private static final Pattern EVENT_ID = Pattern.compile("evt_[0-9A-Za-z]+");

    @Autowired
    Billing billing;

    private Webhooks webhooks;
    private Api owner;
    private Api.Account account;
    private String customer;
    private String subscriptionId;
    private final Instant periodStart =
            Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(Duration.ofDays(1));
    private final Instant periodEnd = periodStart.plus(Duration.ofDays(30));

    @BeforeEach
    void anOrganizationWithAProviderCustomer() {
        webhooks = new Webhooks(baseUrl());
        owner = api();
        account = owner.signup();
        customer = "cus_" + StripePayloads.random();
        subscriptionId = "sub_" + StripePayloads.random();
        jdbc.sql("insert into billing_accounts (organization_id, provider_customer_id, customer_id) values (?, ?, ?)")
                .params(account.organizationId(), customer, account.customerId())
                .update();
    }

    private String subscriptionEvent(String type, Instant created, String status) {
        return event(
                eventId(),
                type,
                created,
                subscription(subscriptionId, customer, status, PRICE_PRO, periodStart, periodEnd, null, false));
    }

    private JsonNode currentSubscription() {
        Api.Response response = owner.get("/api/v1/billing/subscription");
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return response.json().get("subscription");
    }

    private void deliverOk(String body) {
        Api.Response response = webhooks.deliver(body);
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
    }

    /** How many of the events in these bodies are recorded as processed (scoped: the context is shared). */
    private int processedEvents(List<String> bodies) {
        List<String> ids = bodies.stream()
                .flatMap(body -> EVENT_ID.matcher(body).results().map(match -> match.group()))
                .toList();
        return jdbc.sql("select count(*) from processed_webhook_events where event_id in (:ids)")
                .param("ids", ids)
                .query(Integer.class)
                .single();
    }

    private int subscriptionRows() {
        return jdbc.sql("select count(*) from subscriptions where organization_id = ?")
                .param(account.organizationId())
                .query(Integer.class)
                .single();
    }

    // --- signature ---

    @Test
    void shouldApplyAValidlySignedSubscriptionEvent() {
        Instant now = Instant.now();
        deliverOk(subscriptionEvent("customer.subscription.created", now, "active"));

        JsonNode subscription = currentSubscription();
        assertThat(subscription.get("status").asString()).isEqualTo("active");
        assertThat(subscription.get("organization_id").asString())
                .isEqualTo(account.organizationId().toString());
        assertThat(subscription.get("customer_id").asString())
                .isEqualTo(account.customerId().toString());
        assertThat(subscription.get("provider_customer_id").asString()).isEqualTo(customer);
        assertThat(subscription.get("provider_subscription_id").asString()).isEqualTo(subscriptionId);
        assertThat(subscription.get("plan_id").asString())
                .isEqualTo(billing.plans().get(1).id().toString());
        assertThat(subscription.get("current_period_start").asString()).isEqualTo(periodStart.toString());
        assertThat(subscription.get("current_period_end").asString()).isEqualTo(periodEnd.toString());
        assertThat(subscription.get("cancel_at").isNull()).isTrue();
        assertThat(subscription.get("created_at").asString()).endsWith("Z");
        assertThat(subscription.get("updated_at").asString()).endsWith("Z");
        assertThat(billing.effectivePlan(account.organizationId()).tier()).isEqualTo(Tier.PRO);
    }

    /** A request the webhook must refuse: how it is sent, given the event body and the webhooks client. */
    @FunctionalInterface
    interface Refused {
        Api.Response send(Webhooks webhooks, String body);
    }

    static Stream<Arguments> refusedSignatures() {
        Stream<Arguments> named = Stream.of(
                refusal(
                        "a tampered body",
                        (webhooks, body) -> webhooks.post(
                                body.replace("\"active\"", "\"trialing\""), signedNow(Webhooks.SECRET, body))),
                refusal(
                        "a signature made with another secret",
                        (webhooks, body) -> webhooks.post(body, signedNow("whsec_someone_else", body))),
                refusal(
                        "a timestamp older than five minutes",
                        (webhooks, body) -> webhooks.post(
                                body,
                                Webhooks.header(
                                        Webhooks.SECRET,
                                        Instant.now().minusSeconds(301).getEpochSecond(),
                                        body))),
                refusal(
                        "a timestamp far in the future",
                        (webhooks, body) -> webhooks.post(
                                body,
                                Webhooks.header(
                                        Webhooks.SECRET,
                                        Instant.now().plusSeconds(600).getEpochSecond(),
                                        body))),
                refusal("no signature header", (webhooks, body) -> webhooks.post(body, null)));
        Stream<Arguments> malformed = Stream.<java.util.function.BiFunction<Long, String, String>>of(
                        (now, good) -> "",
                        (now, good) -> "garbage",
                        (now, good) -> "v1=" + good,
                        (now, good) -> "t=" + now,
                        (now, good) -> "t=" + now + ",v1=",
                        (now, good) -> "t=" + now + ",v1=" + good.substring(1),
                        (now, good) -> "t=" + now + ",v1=" + good.replace(good.charAt(0), 'z'),
                        (now, good) -> "t=abc,v1=" + good,
                        (now, good) -> "t=" + now + ",t=" + now + ",v1=" + good,
                        (now, good) -> "t=" + now + ",v0=" + good,
                        (now, good) -> "t=-" + now + ",v1=" + good,
                        (now, good) -> "t=" + now + ";v1=" + good)
                .map(header -> refusal("a malformed signature header", (webhooks, body) -> {
                    long now = Instant.now().getEpochSecond();
                    return webhooks.post(body, header.apply(now, Webhooks.v1(Webhooks.SECRET, now, body)));
                }));
        return Stream.concat(named, malformed);
    }

    private static Arguments refusal(String name, Refused refused) {
        return Arguments.of(Named.of(name, refused));
    }

    private static String signedNow(String secret, String body) {
        return Webhooks.header(secret, Instant.now().getEpochSecond(), body);
    }

    @ParameterizedTest(name = "refuses {0} with 400 signature_invalid and changes nothing")
    @MethodSource("refusedSignatures")
    void shouldRefuseAnEventWhoseSignatureDoesNotProveTheProviderSentIt(Refused refused) {
        String body = subscriptionEvent("customer.subscription.created", Instant.now(), "active");

        Api.Response response = refused.send(webhooks, body);

        assertThat(response.status()).as(response.toString()).isEqualTo(400);
        assertThat(response.code()).isEqualTo("signature_invalid");
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
        assertThat(subscriptionRows()).isZero();
    }

    @Test
    void shouldAcceptATimestampWithinFiveMinutes() {
        String body = subscriptionEvent("customer.subscription.created", Instant.now(), "active");
        long recent = Instant.now().minusSeconds(240).getEpochSecond();

        Api.Response response = webhooks.post(body, Webhooks.header(Webhooks.SECRET, recent, body));

        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        assertThat(subscriptionRows()).isOne();
    }

    @Test
    void shouldAcceptWhenAnyOfSeveralV1SignaturesMatches() {
        String body = subscriptionEvent("customer.subscription.created", Instant.now(), "active");
        long now = Instant.now().getEpochSecond();
        String header = "t=" + now + ",v1=" + Webhooks.v1("whsec_old_secret", now, body) + ",v1="
                + Webhooks.v1(Webhooks.SECRET, now, body) + ",v0=" + "ab".repeat(32);

        Api.Response response = webhooks.post(body, header);

        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        assertThat(subscriptionRows()).isOne();
    }

    @Test
    void shouldCheckTheSignatureOverTheRawBytes() {
        // a body with non-ASCII text and unusual whitespace is signed and checked byte for byte
        String body = subscriptionEvent("customer.subscription.created", Instant.now(), "active")
                .replace("\"metadata\": {},\n  \"next", "\"metadata\": {\"note\": \"Grüße \\u00e9 😀\"},\n\t\"next");
        Api.Response response = webhooks.deliver(body);
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        assertThat(subscriptionRows()).isOne();
    }

    @Test
    void shouldAnswer413ToABodyOverOneMebibyte() {
        String padding = " ".repeat(1024 * 1024);
        String body = subscriptionEvent("customer.subscription.created", Instant.now(), "active") + padding;

        Api.Response response = webhooks.deliver(body);

        assertThat(response.status()).isEqualTo(413);
        assertThat(subscriptionRows()).isZero();
    }

    @Test
    void shouldAnswer400ToASignedBodyThatIsNoEvent() {
        for (String body : List.of("not json", "[]", "{\"id\": \"evt_1\"}", "{\"object\": \"event\"}")) {
            Api.Response response = webhooks.deliver(body);
            assertThat(response.status()).as(body + " " + response).isEqualTo(400);
            assertThat(response.code()).isEqualTo("malformed_event");
        }
    }

    @Test
    void shouldAnswer400AndChangeNothingForASignedEventWithATimestampNoProviderSends() {
        Instant farFuture = Instant.ofEpochSecond(1_000_000_000_000_000L); // a valid Instant, the year 31 million
        String now = subscriptionEvent("customer.subscription.updated", Instant.now(), "active");
        List<String> bodies = List.of(
                // beyond what an Instant holds
                now.replaceFirst("\"created\": \\d+", "\"created\": 100000000000000000000"),
                now.replaceFirst("\"created\": \\d+", "\"created\": 100000000000000000"),
                event(
                        eventId(),
                        "customer.subscription.updated",
                        Instant.now(),
                        subscription(
                                subscriptionId, customer, "active", PRICE_PRO, periodStart, farFuture, null, false)),
                event(
                        eventId(),
                        "customer.subscription.updated",
                        Instant.now(),
                        subscription(
                                subscriptionId,
                                customer,
                                "active",
                                PRICE_PRO,
                                periodStart,
                                periodEnd,
                                farFuture,
                                false)),
                event(
                        eventId(),
                        "invoice.paid",
                        Instant.now(),
                        invoice(
                                "in_" + StripePayloads.random(),
                                customer,
                                subscriptionId,
                                "paid",
                                2000,
                                2000,
                                1,
                                farFuture,
                                periodStart,
                                periodEnd)));

        int processed = processedEvents(bodies);

        for (String body : bodies) {
            Api.Response response = webhooks.deliver(body);
            assertThat(response.status()).as(response.toString()).isEqualTo(400);
            assertThat(response.code()).isEqualTo("malformed_event");
        }
        assertThat(subscriptionRows()).isZero();
        assertThat(owner.get("/api/v1/billing/invoices").json().get("invoices").size())
                .isZero();
        assertThat(processedEvents(bodies)).isEqualTo(processed);
    }

    // --- exactly once, in order ---

    @Test
    void shouldApplyAnEventDeliveredTwentyTimesConcurrentlyExactlyOnce() throws Exception {
        deliverOk(
                subscriptionEvent("customer.subscription.created", Instant.now().minusSeconds(60), "active"));
        String id = eventId();
        String body = event(
                id,
                "customer.subscription.updated",
                Instant.now(),
                subscription(subscriptionId, customer, "past_due", PRICE_PRO, periodStart, periodEnd, null, false));

        for (Api.Response response : Concurrently.run(20, () -> webhooks.deliver(body))) {
            assertThat(response.status()).as(response.toString()).isEqualTo(200);
        }

        assertThat(jdbc.sql("select count(*) from processed_webhook_events where event_id = ?")
                        .param(id)
                        .query(Integer.class)
                        .single())
                .isOne();
        // the row was last written by the very transaction that recorded the event, and by no other
        String effectTransaction = jdbc.sql("select xmin::text from subscriptions where provider_subscription_id = ?")
                .param(subscriptionId)
                .query(String.class)
                .single();
        String eventTransaction = jdbc.sql("select xmin::text from processed_webhook_events where event_id = ?")
                .param(id)
                .query(String.class)
                .single();
        assertThat(effectTransaction).isEqualTo(eventTransaction);
        assertThat(currentSubscription().get("status").asString()).isEqualTo("past_due");
    }

    @Test
    void shouldAnswer200ToADuplicateAndApplyItOnce() {
        String body =
                subscriptionEvent("customer.subscription.created", Instant.now().minusSeconds(10), "active");
        deliverOk(body);
        // newer news in between; the duplicate must not bring the old state back
        deliverOk(subscriptionEvent("customer.subscription.updated", Instant.now(), "past_due"));

        deliverOk(body);

        assertThat(currentSubscription().get("status").asString()).isEqualTo("past_due");
    }

    @Test
    void shouldKeepTheNewerStateWhenAnOlderUpdateArrivesLater() {
        Instant newer = Instant.now();
        Instant older = newer.minusSeconds(120);
        deliverOk(event(
                eventId(),
                "customer.subscription.updated",
                newer,
                subscription(subscriptionId, customer, "active", PRICE_PRO, periodStart, periodEnd, null, true)));

        deliverOk(event(
                eventId(),
                "customer.subscription.updated",
                older,
                subscription(
                        subscriptionId,
                        customer,
                        "past_due",
                        PRICE_PRO,
                        periodStart.minus(Duration.ofDays(30)),
                        periodStart,
                        null,
                        false)));

        JsonNode subscription = currentSubscription();
        assertThat(subscription.get("status").asString()).isEqualTo("active");
        assertThat(subscription.get("current_period_end").asString()).isEqualTo(periodEnd.toString());
        assertThat(subscription.get("cancel_at").asString()).isEqualTo(periodEnd.toString());
    }

    @Test
    void shouldApplyAnUpdateNewerThanTheState() {
        deliverOk(
                subscriptionEvent("customer.subscription.created", Instant.now().minusSeconds(60), "active"));
        Instant cancelAt = periodEnd.minus(Duration.ofDays(3));
        Instant nextEnd = periodEnd.plus(Duration.ofDays(30));

        deliverOk(event(
                eventId(),
                "customer.subscription.updated",
                Instant.now(),
                subscription(subscriptionId, customer, "active", PRICE_PRO, periodEnd, nextEnd, cancelAt, false)));

        JsonNode subscription = currentSubscription();
        assertThat(subscription.get("current_period_start").asString()).isEqualTo(periodEnd.toString());
        assertThat(subscription.get("current_period_end").asString()).isEqualTo(nextEnd.toString());
        assertThat(subscription.get("cancel_at").asString()).isEqualTo(cancelAt.toString());
    }

    @Test
    void shouldRecordTheFreePlanForAPriceItDoesNotSell() {
        deliverOk(event(
                eventId(),
                "customer.subscription.created",
                Instant.now(),
                subscription(
                        subscriptionId, customer, "active", "price_unknown", periodStart, periodEnd, null, false)));

        assertThat(currentSubscription().get("plan").get("tier").asString()).isEqualTo("free");
        assertThat(billing.effectivePlan(account.organizationId()).tier()).isEqualTo(Tier.FREE);
    }

    @Test
    void shouldIgnoreAnEventAboutAnUnknownCustomer() {
        String stranger = "cus_" + StripePayloads.random();
        Api.Response response = webhooks.deliver(event(
                eventId(),
                "customer.subscription.created",
                Instant.now(),
                subscription(subscriptionId, stranger, "active", PRICE_PRO, periodStart, periodEnd, null, false)));
        Api.Response invoiceResponse = webhooks.deliver(event(
                eventId(),
                "invoice.paid",
                Instant.now(),
                invoice(
                        "in_" + StripePayloads.random(),
                        stranger,
                        subscriptionId,
                        "paid",
                        2000,
                        2000,
                        1,
                        Instant.now(),
                        periodStart,
                        periodEnd)));

        assertThat(response.status()).isEqualTo(200);
        assertThat(invoiceResponse.status()).isEqualTo(200);
        assertThat(jdbc.sql("select count(*) from subscriptions where provider_subscription_id = ?")
                        .param(subscriptionId)
                        .query(Integer.class)
                        .single())
                .isZero();
        assertThat(jdbc.sql("select count(*) from invoices where provider_subscription_id = ?")
                        .param(subscriptionId)
                        .query(Integer.class)
                        .single())
                .isZero();
    }

    @Test
    void shouldAnswer200AndIgnoreAnEventTypeItDoesNotHandle() {
        String body = event(
                eventId(),
                "customer.updated",
                Instant.now(),
                """
                {"id": "%s", "object": "customer", "email": "x@example.com", "metadata": {}}"""
                        .formatted(customer));
        deliverOk(body);
        deliverOk(event(eventId(), "plan.created", Instant.now(), "{\"id\": \"price_1\", \"object\": \"plan\"}"));
        assertThat(subscriptionRows()).isZero();
    }

    @Test
    void shouldIgnoreACompletedCheckoutOfAnOrganizationThatDoesNotExist() {
        Api.Response response = webhooks.deliver(event(
                eventId(),
                "checkout.session.completed",
                Instant.now(),
                StripePayloads.checkoutSession(
                        "cs_test_" + StripePayloads.random(),
                        java.util.UUID.randomUUID(),
                        account.customerId(),
                        customer,
                        subscriptionId)));

        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        assertThat(subscriptionRows()).isZero();
    }

    @Test
    void shouldIgnoreACompletedCheckoutNamingAnotherProviderCustomerThanTheOrganizations() {
        Api.Response response = webhooks.deliver(event(
                eventId(),
                "checkout.session.completed",
                Instant.now(),
                StripePayloads.checkoutSession(
                        "cs_test_" + StripePayloads.random(),
                        account.organizationId(),
                        account.customerId(),
                        "cus_" + StripePayloads.random(),
                        subscriptionId)));

        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        assertThat(subscriptionRows()).isZero();
        assertThat(jdbc.sql("select provider_customer_id from billing_accounts where organization_id = ?")
                        .param(account.organizationId())
                        .query(String.class)
                        .single())
                .isEqualTo(customer);
    }

    @Test
    void shouldIgnoreACompletedCheckoutWhoseSubscriptionTheProviderDoesNotKnow() {
        // the provider here is the sandbox, which has never heard of this subscription
        Api.Response response = webhooks.deliver(event(
                eventId(),
                "checkout.session.completed",
                Instant.now(),
                StripePayloads.checkoutSession(
                        "cs_test_" + StripePayloads.random(),
                        account.organizationId(),
                        account.customerId(),
                        customer,
                        subscriptionId)));

        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        assertThat(subscriptionRows()).isZero();
    }

    // --- effects ---

    @Test
    void shouldRecordAPaidInvoiceAndReactivateAPastDueSubscription() {
        deliverOk(
                subscriptionEvent("customer.subscription.updated", Instant.now().minusSeconds(60), "past_due"));
        String invoiceId = "in_" + StripePayloads.random();
        Instant created = Instant.now().minusSeconds(30).truncatedTo(ChronoUnit.SECONDS);

        deliverOk(event(
                eventId(),
                "invoice.paid",
                Instant.now(),
                invoice(invoiceId, customer, subscriptionId, "paid", 2000, 2000, 2, created, periodStart, periodEnd)));

        assertThat(currentSubscription().get("status").asString()).isEqualTo("active");
        JsonNode invoices = owner.get("/api/v1/billing/invoices").json().get("invoices");
        assertThat(invoices.size()).isOne();
        JsonNode invoice = invoices.get(0);
        assertThat(invoice.get("provider_invoice_id").asString()).isEqualTo(invoiceId);
        assertThat(invoice.get("status").asString()).isEqualTo("paid");
        assertThat(invoice.get("amount_due_cents").asLong()).isEqualTo(2000);
        assertThat(invoice.get("amount_paid_cents").asLong()).isEqualTo(2000);
        assertThat(invoice.get("currency").asString()).isEqualTo("usd");
        assertThat(invoice.get("attempt_count").asInt()).isEqualTo(2);
        assertThat(invoice.get("hosted_invoice_url").asString()).contains(invoiceId);
        assertThat(invoice.get("period_start").asString()).isEqualTo(periodStart.toString());
        assertThat(invoice.get("period_end").asString()).isEqualTo(periodEnd.toString());
        assertThat(invoice.get("created_at").asString()).isEqualTo(created.toString());
        assertThat(invoice.get("updated_at").asString()).endsWith("Z");
        assertThat(invoice.get("organization_id").asString())
                .isEqualTo(account.organizationId().toString());
        assertThat(invoice.get("subscription_id").asString())
                .isEqualTo(currentSubscription().get("id").asString());
        assertThat(invoice.get("id").asString()).hasSize(36);
    }

    @Test
    void shouldRecordAFailedPaymentAndMakeTheSubscriptionPastDue() {
        deliverOk(
                subscriptionEvent("customer.subscription.created", Instant.now().minusSeconds(60), "active"));
        String invoiceId = "in_" + StripePayloads.random();

        deliverOk(event(
                eventId(),
                "invoice.payment_failed",
                Instant.now(),
                invoice(
                        invoiceId,
                        customer,
                        subscriptionId,
                        "open",
                        2000,
                        0,
                        1,
                        Instant.now(),
                        periodStart,
                        periodEnd)));

        assertThat(currentSubscription().get("status").asString()).isEqualTo("past_due");
        assertThat(billing.effectivePlan(account.organizationId()).tier()).isEqualTo(Tier.PRO);
        JsonNode invoice =
                owner.get("/api/v1/billing/invoices").json().get("invoices").get(0);
        assertThat(invoice.get("status").asString()).isEqualTo("open");
        assertThat(invoice.get("attempt_count").asInt()).isEqualTo(1);
        assertThat(invoice.get("amount_paid_cents").asLong()).isZero();

        // the second attempt fails too: same invoice, attempt count 2
        deliverOk(event(
                eventId(),
                "invoice.payment_failed",
                Instant.now().plusSeconds(1),
                invoice(
                        invoiceId,
                        customer,
                        subscriptionId,
                        "open",
                        2000,
                        0,
                        2,
                        Instant.now(),
                        periodStart,
                        periodEnd)));
        JsonNode invoices = owner.get("/api/v1/billing/invoices").json().get("invoices");
        assertThat(invoices.size()).isOne();
        assertThat(invoices.get(0).get("attempt_count").asInt()).isEqualTo(2);
    }

    @Test
    void shouldKeepAPaidInvoicePaidWhenAnOlderFailureArrivesLater() {
        deliverOk(
                subscriptionEvent("customer.subscription.created", Instant.now().minusSeconds(60), "active"));
        String invoiceId = "in_" + StripePayloads.random();
        Instant now = Instant.now();
        deliverOk(event(
                eventId(),
                "invoice.paid",
                now,
                invoice(invoiceId, customer, subscriptionId, "paid", 2000, 2000, 2, now, periodStart, periodEnd)));

        deliverOk(event(
                eventId(),
                "invoice.payment_failed",
                now.minusSeconds(30),
                invoice(invoiceId, customer, subscriptionId, "open", 2000, 0, 1, now, periodStart, periodEnd)));

        assertThat(owner.get("/api/v1/billing/invoices")
                        .json()
                        .get("invoices")
                        .get(0)
                        .get("status")
                        .asString())
                .isEqualTo("paid");
        assertThat(currentSubscription().get("status").asString()).isEqualTo("active");
    }

    @Test
    void shouldRecordAnInvoiceThatArrivesBeforeItsSubscriptionAndLinkItLater() {
        String invoiceId = "in_" + StripePayloads.random();
        deliverOk(event(
                eventId(),
                "invoice.paid",
                Instant.now(),
                invoice(
                        invoiceId,
                        customer,
                        subscriptionId,
                        "paid",
                        2000,
                        2000,
                        1,
                        Instant.now(),
                        periodStart,
                        periodEnd)));
        JsonNode before =
                owner.get("/api/v1/billing/invoices").json().get("invoices").get(0);
        assertThat(before.get("subscription_id").isNull()).isTrue();

        deliverOk(subscriptionEvent("customer.subscription.created", Instant.now(), "active"));

        JsonNode after =
                owner.get("/api/v1/billing/invoices").json().get("invoices").get(0);
        assertThat(after.get("subscription_id").asString())
                .isEqualTo(currentSubscription().get("id").asString());
    }

    @Test
    void shouldListInvoicesNewestFirst() {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        for (int i = 0; i < 3; i++) {
            deliverOk(event(
                    eventId(),
                    "invoice.paid",
                    now,
                    invoice(
                            "in_" + i + StripePayloads.random(),
                            customer,
                            subscriptionId,
                            "paid",
                            2000,
                            2000,
                            1,
                            now.minus(Duration.ofDays(30L * (2 - i))),
                            periodStart,
                            periodEnd)));
        }
        JsonNode invoices = owner.get("/api/v1/billing/invoices").json().get("invoices");
        assertThat(invoices.size()).isEqualTo(3);
        assertThat(invoices.get(0).get("created_at").asString()).isEqualTo(now.toString());
        assertThat(invoices.get(2).get("created_at").asString())
                .isEqualTo(now.minus(Duration.ofDays(60)).toString());
    }

    @Test
    void shouldListTheLaterPeriodFirstWhenTwoInvoicesWereCreatedInTheSameSecond() {
        Instant created = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Instant nextEnd = periodEnd.plus(Duration.ofDays(30));
        String renewal = "in_" + StripePayloads.random();
        // the renewal's event arrives first; the order still follows the periods
        deliverOk(event(
                eventId(),
                "invoice.payment_failed",
                created,
                invoice(renewal, customer, subscriptionId, "open", 2000, 0, 1, created, periodEnd, nextEnd)));
        deliverOk(event(
                eventId(),
                "invoice.paid",
                created,
                invoice(
                        "in_" + StripePayloads.random(),
                        customer,
                        subscriptionId,
                        "paid",
                        2000,
                        2000,
                        1,
                        created,
                        periodStart,
                        periodEnd)));

        JsonNode invoices = owner.get("/api/v1/billing/invoices").json().get("invoices");
        assertThat(invoices.get(0).get("provider_invoice_id").asString()).isEqualTo(renewal);
        assertThat(invoices.get(1).get("status").asString()).isEqualTo("paid");
    }

    @Test
    void shouldCancelOnDeletedAndPutTheOrganizationBackOnFree() {
        deliverOk(
                subscriptionEvent("customer.subscription.created", Instant.now().minusSeconds(60), "active"));
        assertThat(billing.effectivePlan(account.organizationId()).tier()).isEqualTo(Tier.PRO);

        deliverOk(subscriptionEvent("customer.subscription.deleted", Instant.now(), "canceled"));

        Api.Response response = owner.get("/api/v1/billing/subscription");
        assertThat(response.status()).isEqualTo(404);
        assertThat(response.code()).isEqualTo("subscription_not_found");
        assertThat(billing.effectivePlan(account.organizationId()).tier()).isEqualTo(Tier.FREE);
        assertThat(jdbc.sql("select status from subscriptions where provider_subscription_id = ?")
                        .param(subscriptionId)
                        .query(String.class)
                        .single())
                .isEqualTo("canceled");
    }

    @Test
    void shouldNeverBringACanceledSubscriptionBack() {
        Instant now = Instant.now();
        deliverOk(subscriptionEvent("customer.subscription.deleted", now, "canceled"));

        // a late update, even one stamped the same second, does not revive it
        deliverOk(subscriptionEvent("customer.subscription.updated", now, "active"));
        deliverOk(event(
                eventId(),
                "invoice.paid",
                now.plusSeconds(5),
                invoice(
                        "in_" + StripePayloads.random(),
                        customer,
                        subscriptionId,
                        "paid",
                        2000,
                        2000,
                        1,
                        now,
                        periodStart,
                        periodEnd)));

        assertThat(owner.get("/api/v1/billing/subscription").status()).isEqualTo(404);
        assertThat(billing.effectivePlan(account.organizationId()).tier()).isEqualTo(Tier.FREE);
    }

    @Test
    void shouldNotLetAnotherOrganizationsCustomerTouchThisOrganizationsSubscription() {
        deliverOk(
                subscriptionEvent("customer.subscription.created", Instant.now().minusSeconds(60), "active"));
        Api other = api();
        Api.Account otherAccount = other.signup();
        String otherCustomer = "cus_" + StripePayloads.random();
        jdbc.sql("insert into billing_accounts (organization_id, provider_customer_id, customer_id) values (?, ?, ?)")
                .params(otherAccount.organizationId(), otherCustomer, otherAccount.customerId())
                .update();

        // an event naming the other organization's customer with this organization's subscription id
        deliverOk(event(
                eventId(),
                "customer.subscription.deleted",
                Instant.now(),
                subscription(
                        subscriptionId, otherCustomer, "canceled", PRICE_PRO, periodStart, periodEnd, null, false)));

        assertThat(currentSubscription().get("status").asString()).isEqualTo("active");
        assertThat(other.get("/api/v1/billing/subscription").status()).isEqualTo(404);
    }

    @Test
    void shouldKeepTheRawBytesOfTheSignedBodyIntact() {
        byte[] body = subscriptionEvent("customer.subscription.created", Instant.now(), "active")
                .getBytes(StandardCharsets.UTF_8);
        long now = Instant.now().getEpochSecond();
        String header = Webhooks.header(Webhooks.SECRET, now, new String(body, StandardCharsets.UTF_8));
        byte[] withTrailingNewline = Arrays.copyOf(body, body.length + 1);
        withTrailingNewline[body.length] = '\n';

        assertThat(webhooks.post(withTrailingNewline, header).status()).isEqualTo(400);
        assertThat(webhooks.post(body, header).status()).isEqualTo(200);
    }
}
