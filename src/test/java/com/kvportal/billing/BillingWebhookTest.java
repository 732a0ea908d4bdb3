package com.kvportal.billing;

import static com.kvportal.billing.StripePayloads.event;
import static com.kvportal.billing.StripePayloads.eventId;
import static com.kvportal.billing.StripePayloads.subscription;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.Concurrently;
import com.kvportal.support.IntegrationTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
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

    private static final Pattern EVENT_ID = Pattern.compile("evt_[0-9A-Za-z]+");

    @Autowired
    Billing billing;

    private ProviderCustomer org;

    @BeforeEach
    void anOrganizationWithAProviderCustomer() {
        org = ProviderCustomer.signUp(baseUrl(), jdbc, Duration.ofDays(1));
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

    private long subscriptionRows() {
        return count("select count(*) from subscriptions where organization_id = ?", org.organizationId());
    }

    // --- signature ---

    @Test
    void shouldApplyAValidlySignedSubscriptionEvent() {
        Instant now = Instant.now();
        org.deliverOk(org.subscriptionEvent("customer.subscription.created", now, "active"));

        JsonNode subscription = org.currentSubscription();
        assertThat(subscription.get("status").asString()).isEqualTo("active");
        assertThat(subscription.get("organization_id").asString())
                .isEqualTo(org.organizationId().toString());
        assertThat(subscription.get("customer_id").asString())
                .isEqualTo(org.account().customerId().toString());
        assertThat(subscription.get("provider_customer_id").asString()).isEqualTo(org.customer());
        assertThat(subscription.get("provider_subscription_id").asString()).isEqualTo(org.subscriptionId());
        assertThat(subscription.get("plan_id").asString())
                .isEqualTo(billing.plans().get(1).id().toString());
        assertThat(subscription.get("current_period_start").asString())
                .isEqualTo(org.periodStart().toString());
        assertThat(subscription.get("current_period_end").asString())
                .isEqualTo(org.periodEnd().toString());
        assertThat(subscription.get("cancel_at").isNull()).isTrue();
        assertThat(subscription.get("created_at").asString()).endsWith("Z");
        assertThat(subscription.get("updated_at").asString()).endsWith("Z");
        assertThat(billing.effectivePlan(org.organizationId()).tier()).isEqualTo(Tier.PRO);
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
                        (webhooks, body) ->
                                webhooks.post(body, signedAt(Instant.now().minusSeconds(301), body))),
                refusal(
                        "a timestamp far in the future",
                        (webhooks, body) ->
                                webhooks.post(body, signedAt(Instant.now().plusSeconds(600), body))),
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

    private static String signedAt(Instant at, String body) {
        return Webhooks.header(Webhooks.SECRET, at.getEpochSecond(), body);
    }

    private static String signedNow(String secret, String body) {
        return Webhooks.header(secret, Instant.now().getEpochSecond(), body);
    }

    @ParameterizedTest(name = "refuses {0} with 400 signature_invalid and changes nothing")
    @MethodSource("refusedSignatures")
    void shouldRefuseAnEventWhoseSignatureDoesNotProveTheProviderSentIt(Refused refused) {
        String body = org.subscriptionEvent("customer.subscription.created", Instant.now(), "active");

        Api.Response response = refused.send(org.webhooks(), body);

        assertThat(response.status()).as(response.toString()).isEqualTo(400);
        assertThat(response.code()).isEqualTo("signature_invalid");
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
        assertThat(subscriptionRows()).isZero();
    }

    @Test
    void shouldAcceptATimestampWithinFiveMinutes() {
        String body = org.subscriptionEvent("customer.subscription.created", Instant.now(), "active");
        long recent = Instant.now().minusSeconds(240).getEpochSecond();

        Api.Response response = org.webhooks().post(body, Webhooks.header(Webhooks.SECRET, recent, body));

        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        assertThat(subscriptionRows()).isOne();
    }

    @Test
    void shouldAcceptWhenAnyOfSeveralV1SignaturesMatches() {
        String body = org.subscriptionEvent("customer.subscription.created", Instant.now(), "active");
        long now = Instant.now().getEpochSecond();
        String header = "t=" + now + ",v1=" + Webhooks.v1("whsec_old_secret", now, body) + ",v1="
                + Webhooks.v1(Webhooks.SECRET, now, body) + ",v0=" + "ab".repeat(32);

        Api.Response response = org.webhooks().post(body, header);

        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        assertThat(subscriptionRows()).isOne();
    }

    @Test
    void shouldCheckTheSignatureOverTheRawBytes() {
        // a body with non-ASCII text and unusual whitespace is signed and checked byte for byte
        String body = org.subscriptionEvent("customer.subscription.created", Instant.now(), "active")
                .replace("\"metadata\": {},\n  \"next", "\"metadata\": {\"note\": \"Grüße \\u00e9 😀\"},\n\t\"next");
        Api.Response response = org.deliver(body);
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        assertThat(subscriptionRows()).isOne();
    }

    @Test
    void shouldAnswer413ToABodyOverOneMebibyte() {
        String padding = " ".repeat(1024 * 1024);
        String body = org.subscriptionEvent("customer.subscription.created", Instant.now(), "active") + padding;

        Api.Response response = org.deliver(body);

        assertThat(response.status()).isEqualTo(413);
        assertThat(subscriptionRows()).isZero();
    }

    @Test
    void shouldAnswer400ToASignedBodyThatIsNoEvent() {
        for (String body : List.of("not json", "[]", "{\"id\": \"evt_1\"}", "{\"object\": \"event\"}")) {
            Api.Response response = org.deliver(body);
            assertThat(response.status()).as(body + " " + response).isEqualTo(400);
            assertThat(response.code()).isEqualTo("malformed_event");
        }
    }

    @Test
    void shouldAnswer400AndChangeNothingForASignedEventWithATimestampNoProviderSends() {
        Instant farFuture = Instant.ofEpochSecond(1_000_000_000_000_000L); // a valid Instant, the year 31 million
        String now = org.subscriptionEvent("customer.subscription.updated", Instant.now(), "active");
        List<String> bodies = List.of(
                // beyond what an Instant holds
                now.replaceFirst("\"created\": \\d+", "\"created\": 100000000000000000000"),
                now.replaceFirst("\"created\": \\d+", "\"created\": 100000000000000000"),
                event(
                        "customer.subscription.updated",
                        Instant.now(),
                        org.over(org.periodStart(), farFuture).subscription("active")),
                event("customer.subscription.updated", Instant.now(), org.subscription("active", farFuture, false)),
                event(
                        "invoice.paid",
                        Instant.now(),
                        org.invoice("in_" + StripePayloads.random(), "paid", 2000, 2000, 1, farFuture)));

        int processed = processedEvents(bodies);

        for (String body : bodies) {
            Api.Response response = org.deliver(body);
            assertThat(response.status()).as(response.toString()).isEqualTo(400);
            assertThat(response.code()).isEqualTo("malformed_event");
        }
        assertThat(subscriptionRows()).isZero();
        assertThat(org.invoices().size()).isZero();
        assertThat(processedEvents(bodies)).isEqualTo(processed);
    }

    // --- exactly once, in order ---

    @Test
    void shouldApplyAnEventDeliveredTwentyTimesConcurrentlyExactlyOnce() throws Exception {
        org.deliverOk(org.subscriptionEvent(
                "customer.subscription.created", Instant.now().minusSeconds(60), "active"));
        String id = eventId();
        String body = event(id, "customer.subscription.updated", Instant.now(), org.subscription("past_due"));

        for (Api.Response response : Concurrently.run(20, () -> org.deliver(body))) {
            assertThat(response.status()).as(response.toString()).isEqualTo(200);
        }

        assertThat(count("select count(*) from processed_webhook_events where event_id = ?", id))
                .isOne();
        // the row was last written by the very transaction that recorded the event, and by no other
        String effectTransaction = jdbc.sql("select xmin::text from subscriptions where provider_subscription_id = ?")
                .param(org.subscriptionId())
                .query(String.class)
                .single();
        String eventTransaction = jdbc.sql("select xmin::text from processed_webhook_events where event_id = ?")
                .param(id)
                .query(String.class)
                .single();
        assertThat(effectTransaction).isEqualTo(eventTransaction);
        assertThat(org.currentSubscription().get("status").asString()).isEqualTo("past_due");
    }

    @Test
    void shouldAnswer200ToADuplicateAndApplyItOnce() {
        String body = org.subscriptionEvent(
                "customer.subscription.created", Instant.now().minusSeconds(10), "active");
        org.deliverOk(body);
        // newer news in between; the duplicate must not bring the old state back
        org.deliverOk(org.subscriptionEvent("customer.subscription.updated", Instant.now(), "past_due"));

        org.deliverOk(body);

        assertThat(org.currentSubscription().get("status").asString()).isEqualTo("past_due");
    }

    @Test
    void shouldKeepTheNewerStateWhenAnOlderUpdateArrivesLater() {
        Instant newer = Instant.now();
        Instant older = newer.minusSeconds(120);
        org.deliverOk(event("customer.subscription.updated", newer, org.subscription("active", null, true)));

        org.deliverOk(event(
                "customer.subscription.updated",
                older,
                org.over(org.periodStart().minus(Duration.ofDays(30)), org.periodStart())
                        .subscription("past_due")));

        JsonNode subscription = org.currentSubscription();
        assertThat(subscription.get("status").asString()).isEqualTo("active");
        assertThat(subscription.get("current_period_end").asString())
                .isEqualTo(org.periodEnd().toString());
        assertThat(subscription.get("cancel_at").asString())
                .isEqualTo(org.periodEnd().toString());
    }

    @Test
    void shouldApplyAnUpdateNewerThanTheState() {
        org.deliverOk(org.subscriptionEvent(
                "customer.subscription.created", Instant.now().minusSeconds(60), "active"));
        Instant cancelAt = org.periodEnd().minus(Duration.ofDays(3));
        Instant nextEnd = org.periodEnd().plus(Duration.ofDays(30));

        org.deliverOk(event(
                "customer.subscription.updated",
                Instant.now(),
                org.over(org.periodEnd(), nextEnd).subscription("active", cancelAt, false)));

        JsonNode subscription = org.currentSubscription();
        assertThat(subscription.get("current_period_start").asString())
                .isEqualTo(org.periodEnd().toString());
        assertThat(subscription.get("current_period_end").asString()).isEqualTo(nextEnd.toString());
        assertThat(subscription.get("cancel_at").asString()).isEqualTo(cancelAt.toString());
    }

    @Test
    void shouldRecordTheFreePlanForAPriceItDoesNotSell() {
        org.deliverOk(event("customer.subscription.created", Instant.now(), org.activeSubscriptionTo("price_unknown")));

        assertThat(org.currentSubscription().get("plan").get("tier").asString()).isEqualTo("free");
        assertThat(billing.effectivePlan(org.organizationId()).tier()).isEqualTo(Tier.FREE);
    }

    @Test
    void shouldIgnoreAnEventAboutAnUnknownCustomer() {
        String stranger = "cus_" + StripePayloads.random();
        Api.Response response = org.deliver(event(
                "customer.subscription.created",
                Instant.now(),
                org.withCustomer(stranger).subscription("active")));
        Api.Response invoiceResponse = org.deliver(event(
                "invoice.paid",
                Instant.now(),
                org.withCustomer(stranger)
                        .invoice("in_" + StripePayloads.random(), "paid", 2000, 2000, 1, Instant.now())));

        assertThat(response.status()).isEqualTo(200);
        assertThat(invoiceResponse.status()).isEqualTo(200);
        assertThat(count("select count(*) from subscriptions where provider_subscription_id = ?", org.subscriptionId()))
                .isZero();
        assertThat(count("select count(*) from invoices where provider_subscription_id = ?", org.subscriptionId()))
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
                        .formatted(org.customer()));
        org.deliverOk(body);
        org.deliverOk(event("plan.created", Instant.now(), "{\"id\": \"price_1\", \"object\": \"plan\"}"));
        assertThat(subscriptionRows()).isZero();
    }

    /** Completed checkouts the webhook must ignore, made for this test's organization. */
    static Stream<Arguments> checkoutsToIgnore() {
        return Stream.of(
                checkout(
                        "of an organization that does not exist",
                        org -> org.completedCheckout(UUID.randomUUID(), org.customer())),
                checkout(
                        "naming another provider customer than the organization's",
                        org -> org.completedCheckout(org.organizationId(), "cus_" + StripePayloads.random())),
                // the provider here is the sandbox, which has never heard of this subscription
                checkout(
                        "whose subscription the provider does not know",
                        org -> org.completedCheckout(org.organizationId(), org.customer())));
    }

    private static Arguments checkout(String name, Function<ProviderCustomer, String> body) {
        return Arguments.of(Named.of(name, body));
    }

    @ParameterizedTest(name = "ignores a completed checkout {0}")
    @MethodSource("checkoutsToIgnore")
    void shouldIgnoreACompletedCheckoutThatIsNotTheOrganizations(Function<ProviderCustomer, String> checkout) {
        Api.Response response = org.deliver(checkout.apply(org));

        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        assertThat(subscriptionRows()).isZero();
        assertThat(single(
                        String.class,
                        "select provider_customer_id from billing_accounts where organization_id = ?",
                        org.organizationId()))
                .isEqualTo(org.customer());
    }

    // --- effects ---

    @Test
    void shouldRecordAPaidInvoiceAndReactivateAPastDueSubscription() {
        org.deliverOk(org.subscriptionEvent(
                "customer.subscription.updated", Instant.now().minusSeconds(60), "past_due"));
        String invoiceId = "in_" + StripePayloads.random();
        Instant created = Instant.now().minusSeconds(30).truncatedTo(ChronoUnit.SECONDS);

        org.deliverOk(event("invoice.paid", Instant.now(), org.invoice(invoiceId, "paid", 2000, 2000, 2, created)));

        assertThat(org.currentSubscription().get("status").asString()).isEqualTo("active");
        JsonNode invoices = org.invoices();
        assertThat(invoices.size()).isOne();
        JsonNode invoice = invoices.get(0);
        assertThat(invoice.get("provider_invoice_id").asString()).isEqualTo(invoiceId);
        assertThat(invoice.get("status").asString()).isEqualTo("paid");
        assertThat(invoice.get("amount_due_cents").asLong()).isEqualTo(2000);
        assertThat(invoice.get("amount_paid_cents").asLong()).isEqualTo(2000);
        assertThat(invoice.get("currency").asString()).isEqualTo("usd");
        assertThat(invoice.get("attempt_count").asInt()).isEqualTo(2);
        assertThat(invoice.get("hosted_invoice_url").asString()).contains(invoiceId);
        assertThat(invoice.get("period_start").asString())
                .isEqualTo(org.periodStart().toString());
        assertThat(invoice.get("period_end").asString())
                .isEqualTo(org.periodEnd().toString());
        assertThat(invoice.get("created_at").asString()).isEqualTo(created.toString());
        assertThat(invoice.get("updated_at").asString()).endsWith("Z");
        assertThat(invoice.get("organization_id").asString())
                .isEqualTo(org.organizationId().toString());
        assertThat(invoice.get("subscription_id").asString())
                .isEqualTo(org.currentSubscription().get("id").asString());
        assertThat(invoice.get("id").asString()).hasSize(36);
    }

    @Test
    void shouldRecordAFailedPaymentAndMakeTheSubscriptionPastDue() {
        org.deliverOk(org.subscriptionEvent(
                "customer.subscription.created", Instant.now().minusSeconds(60), "active"));
        String invoiceId = "in_" + StripePayloads.random();

        org.deliverOk(event(
                "invoice.payment_failed", Instant.now(), org.invoice(invoiceId, "open", 2000, 0, 1, Instant.now())));

        assertThat(org.currentSubscription().get("status").asString()).isEqualTo("past_due");
        assertThat(billing.effectivePlan(org.organizationId()).tier()).isEqualTo(Tier.PRO);
        JsonNode invoice = org.invoices().get(0);
        assertThat(invoice.get("status").asString()).isEqualTo("open");
        assertThat(invoice.get("attempt_count").asInt()).isEqualTo(1);
        assertThat(invoice.get("amount_paid_cents").asLong()).isZero();

        // the second attempt fails too: same invoice, attempt count 2
        org.deliverOk(event(
                "invoice.payment_failed",
                Instant.now().plusSeconds(1),
                org.invoice(invoiceId, "open", 2000, 0, 2, Instant.now())));
        JsonNode invoices = org.invoices();
        assertThat(invoices.size()).isOne();
        assertThat(invoices.get(0).get("attempt_count").asInt()).isEqualTo(2);
    }

    @Test
    void shouldKeepAPaidInvoicePaidWhenAnOlderFailureArrivesLater() {
        org.deliverOk(org.subscriptionEvent(
                "customer.subscription.created", Instant.now().minusSeconds(60), "active"));
        String invoiceId = "in_" + StripePayloads.random();
        Instant now = Instant.now();
        org.deliverOk(event("invoice.paid", now, org.invoice(invoiceId, "paid", 2000, 2000, 2, now)));

        org.deliverOk(
                event("invoice.payment_failed", now.minusSeconds(30), org.invoice(invoiceId, "open", 2000, 0, 1, now)));

        assertThat(org.invoices().get(0).get("status").asString()).isEqualTo("paid");
        assertThat(org.currentSubscription().get("status").asString()).isEqualTo("active");
    }

    @Test
    void shouldRecordAnInvoiceThatArrivesBeforeItsSubscriptionAndLinkItLater() {
        String invoiceId = "in_" + StripePayloads.random();
        org.deliverOk(
                event("invoice.paid", Instant.now(), org.invoice(invoiceId, "paid", 2000, 2000, 1, Instant.now())));
        JsonNode before = org.invoices().get(0);
        assertThat(before.get("subscription_id").isNull()).isTrue();

        org.deliverOk(org.subscriptionEvent("customer.subscription.created", Instant.now(), "active"));

        JsonNode after = org.invoices().get(0);
        assertThat(after.get("subscription_id").asString())
                .isEqualTo(org.currentSubscription().get("id").asString());
    }

    @Test
    void shouldListInvoicesNewestFirst() {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        for (int i = 0; i < 3; i++) {
            org.deliverOk(event(
                    "invoice.paid",
                    now,
                    org.invoice(
                            "in_" + i + StripePayloads.random(),
                            "paid",
                            2000,
                            2000,
                            1,
                            now.minus(Duration.ofDays(30L * (2 - i))))));
        }
        JsonNode invoices = org.invoices();
        assertThat(invoices.size()).isEqualTo(3);
        assertThat(invoices.get(0).get("created_at").asString()).isEqualTo(now.toString());
        assertThat(invoices.get(2).get("created_at").asString())
                .isEqualTo(now.minus(Duration.ofDays(60)).toString());
    }

    @Test
    void shouldListTheLaterPeriodFirstWhenTwoInvoicesWereCreatedInTheSameSecond() {
        Instant created = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Instant nextEnd = org.periodEnd().plus(Duration.ofDays(30));
        String renewal = "in_" + StripePayloads.random();
        // the renewal's event arrives first; the order still follows the periods
        org.deliverOk(event(
                "invoice.payment_failed",
                created,
                org.over(org.periodEnd(), nextEnd).invoice(renewal, "open", 2000, 0, 1, created)));
        org.deliverOk(event(
                "invoice.paid", created, org.invoice("in_" + StripePayloads.random(), "paid", 2000, 2000, 1, created)));

        JsonNode invoices = org.invoices();
        assertThat(invoices.get(0).get("provider_invoice_id").asString()).isEqualTo(renewal);
        assertThat(invoices.get(1).get("status").asString()).isEqualTo("paid");
    }

    @Test
    void shouldCancelOnDeletedAndPutTheOrganizationBackOnFree() {
        org.deliverOk(org.subscriptionEvent(
                "customer.subscription.created", Instant.now().minusSeconds(60), "active"));
        assertThat(billing.effectivePlan(org.organizationId()).tier()).isEqualTo(Tier.PRO);

        org.deliverOk(org.subscriptionEvent("customer.subscription.deleted", Instant.now(), "canceled"));

        Api.Response response = org.owner().get("/api/v1/billing/subscription");
        assertThat(response.status()).isEqualTo(404);
        assertThat(response.code()).isEqualTo("subscription_not_found");
        assertThat(billing.effectivePlan(org.organizationId()).tier()).isEqualTo(Tier.FREE);
        assertThat(single(
                        String.class,
                        "select status from subscriptions where provider_subscription_id = ?",
                        org.subscriptionId()))
                .isEqualTo("canceled");
    }

    @Test
    void shouldNeverBringACanceledSubscriptionBack() {
        Instant now = Instant.now();
        org.deliverOk(org.subscriptionEvent("customer.subscription.deleted", now, "canceled"));

        // a late update, even one stamped the same second, does not revive it
        org.deliverOk(org.subscriptionEvent("customer.subscription.updated", now, "active"));
        org.deliverOk(event(
                "invoice.paid",
                now.plusSeconds(5),
                org.invoice("in_" + StripePayloads.random(), "paid", 2000, 2000, 1, now)));

        assertThat(org.owner().get("/api/v1/billing/subscription").status()).isEqualTo(404);
        assertThat(billing.effectivePlan(org.organizationId()).tier()).isEqualTo(Tier.FREE);
    }

    @Test
    void shouldNotLetAnotherOrganizationsCustomerTouchThisOrganizationsSubscription() {
        org.deliverOk(org.subscriptionEvent(
                "customer.subscription.created", Instant.now().minusSeconds(60), "active"));
        Api other = api();
        Api.Account otherAccount = other.signup();
        String otherCustomer = "cus_" + StripePayloads.random();
        jdbc.sql("insert into billing_accounts (organization_id, provider_customer_id, customer_id) values (?, ?, ?)")
                .params(otherAccount.organizationId(), otherCustomer, otherAccount.customerId())
                .update();

        // an event naming the other organization's customer with this organization's subscription id
        org.deliverOk(event(
                "customer.subscription.deleted",
                Instant.now(),
                org.withCustomer(otherCustomer).subscription("canceled")));

        assertThat(org.currentSubscription().get("status").asString()).isEqualTo("active");
        assertThat(other.get("/api/v1/billing/subscription").status()).isEqualTo(404);
    }

    @Test
    void shouldKeepTheRawBytesOfTheSignedBodyIntact() {
        byte[] body = org.subscriptionEvent("customer.subscription.created", Instant.now(), "active")
                .getBytes(StandardCharsets.UTF_8);
        long now = Instant.now().getEpochSecond();
        String header = Webhooks.header(Webhooks.SECRET, now, new String(body, StandardCharsets.UTF_8));
        byte[] withTrailingNewline = Arrays.copyOf(body, body.length + 1);
        withTrailingNewline[body.length] = '\n';

        assertThat(org.webhooks().post(withTrailingNewline, header).status()).isEqualTo(400);
        assertThat(org.webhooks().post(body, header).status()).isEqualTo(200);
    }
}
