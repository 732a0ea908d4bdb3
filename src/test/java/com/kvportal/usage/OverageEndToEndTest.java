package com.kvportal.usage;

import static com.kvportal.support.StorageSamples.report;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.kvportal.common.PaymentProvider;
import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import com.kvportal.support.StorageSamples;
import com.kvportal.support.StripeEventLog;
import com.stripe.model.Event;
import com.stripe.model.Invoice;
import com.stripe.model.InvoiceLineItem;
import com.stripe.model.Subscription;
import com.stripe.param.InvoiceListParams;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The storage overage from samples to the provider's invoice, with the real stripe-java client against the
 * sandbox and its signed events reaching the real webhook.
 */
class OverageEndToEndTest extends IntegrationTest {

    static final long GIB = 1L << 30;
    static final Duration WEBHOOK_WAIT = Duration.ofSeconds(30);

    @Autowired
    PaymentProvider provider;

    ProOrganization proOrganization() {
        return ProOrganization.buy(api(), api());
    }

    @Test
    void shouldPutExactlyOneOverageLineOnTheRenewalInvoiceHoweverOftenItsEventArrives() throws Exception {
        ProOrganization pro = proOrganization();
        Api owner = pro.owner();
        Api.Account account = pro.account();
        Instant periodStart = pro.periodStart();
        Instant periodEnd = pro.periodEnd();
        // 150 GiB for the whole period: 50 GiB above the allowance, 5 units of 10 GiB at $2.00
        report(baseUrl(), account.projectId(), 150 * GIB, periodStart);

        Api.Response advanced = sandbox().post("/sandbox/subscriptions/" + pro.providerSubscription() + "/advance");
        assertThat(advanced.status()).as(advanced.toString()).isEqualTo(200);

        Invoice renewal = awaitRenewal(pro.customer(), "paid");
        assertThat(renewal.getBillingReason()).isEqualTo("subscription_cycle");
        assertThat(renewal.getAmountDue()).isEqualTo(3000L);
        assertThat(renewal.getAmountPaid()).isEqualTo(3000L);
        List<InvoiceLineItem> overage = overageLines(renewal);
        assertThat(overage).hasSize(1);
        InvoiceLineItem line = overage.get(0);
        assertThat(line.getQuantity()).isEqualTo(5L);
        assertThat(line.getAmount()).isEqualTo(1000L);
        assertThat(line.getCurrency()).isEqualTo("usd");
        assertThat(line.getDescription())
                .isEqualTo("Storage overage: 5 × 10 GiB above 100 GiB ("
                        + periodStart.toString().substring(0, 10) + " – "
                        + periodEnd.toString().substring(0, 10) + ")");
        assertThat(line.getMetadata())
                .containsEntry("organization_id", account.organizationId().toString())
                .containsEntry("period_start", periodStart.toString())
                .containsEntry("kind", "storage_overage");

        // the invoice.created event delivered again, twice as sent and once under a new event id: still one line
        Event created = StripeEventLog.invoiceCreated(stripeClient(), renewal.getId());
        Api.Response asDelivered =
                Api.withKey(baseUrl(), provider.secretKey()).get("/sandbox/stripe/v1/events/" + created.getId());
        assertThat(asDelivered.status()).as(asDelivered.toString()).isEqualTo(200);
        String body = asDelivered.body();
        for (int again = 0; again < 2; again++) {
            Api.Response delivered = deliver(body);
            assertThat(delivered.status()).as(delivered.toString()).isEqualTo(200);
        }
        String renamed = body.replace(
                created.getId(), "evt_replay" + UUID.randomUUID().toString().replace("-", ""));
        Api.Response replayed = deliver(renamed);
        assertThat(replayed.status()).as(replayed.toString()).isEqualTo(200);
        assertThat(overageLines(stripeClient().v1().invoices().retrieve(renewal.getId())))
                .hasSize(1);

        // the portal shows the billed period and the invoice's lines
        JsonNode periods = owner.get("/api/v1/usage/periods").json().get("periods");
        assertThat(periods.size()).isEqualTo(1);
        assertThat(periods.get(0).get("period_start").asString()).isEqualTo(periodStart.toString());
        assertThat(periods.get(0).get("period_end").asString()).isEqualTo(periodEnd.toString());
        assertThat(periods.get(0).get("average_bytes").asLong()).isEqualTo(150 * GIB);
        assertThat(periods.get(0).get("overage_units").asLong()).isEqualTo(5);
        assertThat(periods.get(0).get("overage_cents").asLong()).isEqualTo(1000);
        assertThat(periods.get(0).get("provider_invoice_id").asString()).isEqualTo(renewal.getId());

        // the audit log tells it once, as the provider's doing
        assertThat(jdbc.sql("select actor_type, target_id, details->>'units' from audit_events"
                                + " where organization_id = ? and action = 'usage.overage_billed'")
                        .param(account.organizationId())
                        .query((rs, n) -> rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3))
                        .list())
                .containsExactly("provider " + renewal.getId() + " 5");
        await().atMost(WEBHOOK_WAIT)
                .until(() -> owner.get("/api/v1/billing/invoices").json().get("invoices").findValues("lines").stream()
                        .anyMatch(lines -> lines.toString().contains("storage_overage")));
    }

    @Test
    void shouldClampTheRenewalsOverageLineToTheOverageCapInForceWhenThePeriodIsBilled() throws Exception {
        ProOrganization pro = proOrganization();
        Api owner = pro.owner();
        // 150 GiB for the whole period: 5 units of $2.00 uncapped; a cap of $7.50 pays for 3 of them
        report(baseUrl(), pro.account().projectId(), 150 * GIB, pro.periodStart());
        Api.Response capped = owner.put("/api/v1/usage/limits", Map.of("overage_cap_cents", 750));
        assertThat(capped.status()).as(capped.toString()).isEqualTo(200);

        Api.Response advanced = sandbox().post("/sandbox/subscriptions/" + pro.providerSubscription() + "/advance");
        assertThat(advanced.status()).as(advanced.toString()).isEqualTo(200);

        Invoice renewal = awaitRenewal(pro.customer(), "paid");
        InvoiceLineItem line = overageLines(renewal).get(0);
        assertThat(overageLines(renewal)).hasSize(1);
        assertThat(line.getQuantity()).isEqualTo(3L);
        assertThat(line.getAmount()).isEqualTo(600L);
        assertThat(renewal.getAmountDue()).isEqualTo(2600L);
        JsonNode period = awaitPeriods(owner, 1).get(0);
        assertThat(period.get("overage_units").asLong()).isEqualTo(3);
        assertThat(period.get("overage_cents").asLong()).isEqualTo(600);
    }

    @Test
    void shouldBillNoOverageOnTheFinalInvoiceUnderAnOverageCapOfZero() throws Exception {
        ProOrganization pro = proOrganization();
        Api owner = pro.owner();
        report(baseUrl(), pro.account().projectId(), 125 * GIB, pro.periodStart());
        assertThat(owner.put("/api/v1/usage/limits", Map.of("overage_cap_cents", 0))
                        .status())
                .isEqualTo(200);
        cancelAtPeriodEndAndAdvance(pro);

        awaitEnded(owner);
        // 3 units uncapped; capped to none, so no final invoice and no overage line anywhere
        assertThat(stripeClient()
                        .v1()
                        .invoices()
                        .list(InvoiceListParams.builder()
                                .setCustomer(pro.customer())
                                .build())
                        .getData()
                        .stream()
                        .flatMap(invoice -> overageLines(invoice).stream()))
                .isEmpty();
        assertThat(owner.get("/api/v1/usage/periods").json().get("periods")).isEmpty();
    }

    @Test
    void shouldBillTheLastPeriodsOverageOnAFinalInvoiceWhenTheSubscriptionEnds() throws Exception {
        ProOrganization pro = proOrganization();
        Api owner = pro.owner();
        Api.Account account = pro.account();
        report(baseUrl(), account.projectId(), 125 * GIB, pro.periodStart());
        cancelAtPeriodEndAndAdvance(pro);

        awaitEnded(owner);
        JsonNode periods = awaitPeriods(owner, 1);
        String finalInvoice = periods.get(0).get("provider_invoice_id").asString();
        Invoice invoice = stripeClient().v1().invoices().retrieve(finalInvoice);
        assertThat(invoice.getBillingReason()).isNotEqualTo("subscription_cycle");
        List<InvoiceLineItem> overage = overageLines(invoice);
        assertThat(overage).hasSize(1);
        // canceled at its end: measured over the whole period, 125 GiB throughout, 3 units
        assertThat(overage.get(0).getQuantity()).isEqualTo(3L);
        assertThat(overage.get(0).getAmount()).isEqualTo(600L);
        assertThat(invoice.getAmountDue()).isEqualTo(600L);
        assertThat(periods.get(0).get("overage_units").asLong()).isEqualTo(3);
    }

    @Test
    void shouldBillTheLastPeriodAfterARenewalOverThePeriodTheProviderEnded() throws Exception {
        ProOrganization pro = proOrganization();
        Api owner = pro.owner();
        report(baseUrl(), pro.account().projectId(), 130 * GIB, pro.periodStart());

        // period 1 renews and is billed on its renewal invoice: 130 GiB, 3 units
        advance(pro);
        awaitRenewal(pro.customer(), "paid");
        awaitPeriods(owner, 1);
        Subscription renewed = stripeClient().v1().subscriptions().retrieve(pro.providerSubscription());
        Instant secondStart =
                Instant.ofEpochSecond(renewed.getItems().getData().get(0).getCurrentPeriodStart());
        Instant secondEnd =
                Instant.ofEpochSecond(renewed.getItems().getData().get(0).getCurrentPeriodEnd());

        // period 2 (ahead of the service's clock: the sandbox's clock moved) ends with the subscription
        cancelAtPeriodEndAndAdvance(pro);
        JsonNode periods = awaitPeriods(owner, 2);
        JsonNode last = periods.get(0);
        assertThat(last.get("period_start").asString()).isEqualTo(secondStart.toString());
        assertThat(last.get("period_end").asString()).isEqualTo(secondEnd.toString());
        assertThat(last.get("average_bytes").asLong()).isEqualTo(130 * GIB);
        assertThat(last.get("overage_units").asLong()).isEqualTo(3);
        assertThat(last.get("overage_cents").asLong()).isEqualTo(600);
        Invoice invoice = stripeClient()
                .v1()
                .invoices()
                .retrieve(last.get("provider_invoice_id").asString());
        assertThat(overageLines(invoice)).singleElement().satisfies(line -> {
            assertThat(line.getQuantity()).isEqualTo(3L);
            assertThat(line.getAmount()).isEqualTo(600L);
            assertThat(line.getMetadata()).containsEntry("period_start", secondStart.toString());
        });
        assertThat(overageItems(pro.customer())).hasSize(2);
    }

    @Test
    void shouldMeasureALastPeriodEndedAtItsEndOverTheWholePeriodNotUntilTheEventArrived() throws Exception {
        ProOrganization pro = proOrganization();
        Api owner = pro.owner();
        // 500 GiB for the first 5 seconds, then 50 GiB: the month's average is about 50 GiB, no overage
        StorageSamples.reportAll(
                baseUrl(),
                List.of(
                        StorageSamples.sample(
                                "s-" + UUID.randomUUID(), pro.account().projectId(), 500 * GIB, pro.periodStart()),
                        StorageSamples.sample(
                                "s-" + UUID.randomUUID(),
                                pro.account().projectId(),
                                50 * GIB,
                                pro.periodStart().plusSeconds(5))));
        cancelAtPeriodEndAndAdvance(pro);

        awaitEnded(owner);
        Subscription ended = stripeClient().v1().subscriptions().retrieve(pro.providerSubscription());
        assertThat(ended.getEndedAt()).isEqualTo(pro.periodEnd().getEpochSecond());
        assertThat(ended.getCanceledAt()).isNotNull();
        // nothing to bill: no item at the provider, no billed period
        assertThat(overageItems(pro.customer())).isEmpty();
        assertThat(owner.get("/api/v1/usage/periods").json().get("periods").size())
                .isZero();
    }

    /**
     * Deleting the organization cancels its subscription at once at the provider, and its last period's
     * overage is billed on a final invoice as when a subscription ends, before the 202; invoices stay.
     */
    @Test
    void shouldEndTheSubscriptionAtOnceAndBillTheLastOverageWhenTheOrganizationIsDeleted() throws Exception {
        ProOrganization pro = proOrganization();
        UUID organization = pro.account().organizationId();
        report(baseUrl(), pro.account().projectId(), 130 * GIB, pro.periodStart());
        // a period ended in the second it began has no length and bills nothing: let at least one second pass
        await().until(() -> Instant.now().isAfter(pro.periodStart().plusSeconds(1)));

        Api.Response deleted = pro.owner().deleteOrganization();

        assertThat(deleted.status()).as(deleted.toString()).isEqualTo(202);
        assertThat(stripeClient()
                        .v1()
                        .subscriptions()
                        .retrieve(pro.providerSubscription())
                        .getStatus())
                .isEqualTo("canceled");
        assertThat(count(
                        "select count(*) from subscriptions where organization_id = ? and status = 'canceled'",
                        organization))
                .isEqualTo(1);
        // billed by whoever applied the end first: the deletion, or the provider's news of it (then just after)
        await().atMost(WEBHOOK_WAIT).untilAsserted(() -> assertThat(count(
                        "select count(*) from usage_billed_periods where organization_id = ? and overage_units = 3",
                        organization))
                .isEqualTo(1));
        assertThat(overageItems(pro.customer())).singleElement().satisfies(item -> assertThat(item.getQuantity())
                .isEqualTo(3L));
        assertThat(count("select count(*) from usage_billed_periods where organization_id = ?", organization))
                .isEqualTo(1);
        assertThat(count("select count(*) from invoices where organization_id = ?", organization))
                .isPositive();
    }

    @Test
    void shouldBillAnImmediateCancellationUpToTheMomentItEndedAtTheProvider() throws Exception {
        ProOrganization pro = proOrganization();
        Api owner = pro.owner();
        report(baseUrl(), pro.account().projectId(), 130 * GIB, pro.periodStart());
        // held only after the end: a sample the backend sends ahead (it may, by up to 5 minutes)
        report(
                baseUrl(),
                pro.account().projectId(),
                5000 * GIB,
                Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(4));
        await().pollDelay(Duration.ofSeconds(1)).until(() -> true);

        Subscription canceled = stripeClient().v1().subscriptions().cancel(pro.providerSubscription());
        assertThat(canceled.getStatus()).isEqualTo("canceled");
        assertThat(canceled.getEndedAt()).isNotNull();
        assertThat(canceled.getCanceledAt()).isEqualTo(canceled.getEndedAt());
        Instant endedAt = Instant.ofEpochSecond(canceled.getEndedAt());
        assertThat(endedAt).isAfter(pro.periodStart()).isBefore(pro.periodEnd());

        JsonNode last = awaitPeriods(owner, 1).get(0);
        assertThat(last.get("period_start").asString())
                .isEqualTo(pro.periodStart().toString());
        assertThat(last.get("period_end").asString()).isEqualTo(endedAt.toString());
        assertThat(last.get("average_bytes").asLong()).isEqualTo(130 * GIB);
        assertThat(last.get("overage_units").asLong()).isEqualTo(3);
        assertThat(overageItems(pro.customer())).singleElement().satisfies(item -> {
            assertThat(item.getQuantity()).isEqualTo(3L);
            assertThat(item.getPeriod().getEnd()).isEqualTo(endedAt.getEpochSecond());
        });
    }

    @Test
    void shouldNotBillStorageHeldAfterTheEndWhenTheEndIsAnnouncedLate() throws Exception {
        ProOrganization pro = proOrganization();
        Api owner = pro.owner();
        Instant start = pro.periodStart();
        Instant endedAt = start.plusSeconds(2);
        report(baseUrl(), pro.account().projectId(), 130 * GIB, start);
        report(baseUrl(), pro.account().projectId(), 5000 * GIB, start.plusSeconds(3));
        await().atMost(Duration.ofSeconds(10)).until(() -> Instant.now().isAfter(start.plusSeconds(6)));

        // the provider ended the subscription at start + 2 s; its customer.subscription.deleted arrives only now
        Api.Response current = Api.withKey(baseUrl(), provider.secretKey())
                .get("/sandbox/stripe/v1/subscriptions/" + pro.providerSubscription());
        ObjectNode subscription = (ObjectNode) current.json();
        subscription.put("status", "canceled");
        subscription.put("canceled_at", endedAt.getEpochSecond());
        subscription.put("ended_at", endedAt.getEpochSecond());
        ObjectNode event = Api.JSON.createObjectNode();
        event.put("id", "evt_late" + UUID.randomUUID().toString().replace("-", ""));
        event.put("object", "event");
        event.put("api_version", com.stripe.Stripe.API_VERSION);
        event.put("created", Instant.now().getEpochSecond());
        event.put("livemode", false);
        event.put("pending_webhooks", 1);
        event.put("type", "customer.subscription.deleted");
        event.putObject("data").set("object", subscription);
        Api.Response delivered = deliver(Api.JSON.writeValueAsString(event));
        assertThat(delivered.status()).as(delivered.toString()).isEqualTo(200);

        JsonNode last = awaitPeriods(owner, 1).get(0);
        assertThat(last.get("period_end").asString()).isEqualTo(endedAt.toString());
        assertThat(last.get("average_bytes").asLong()).isEqualTo(130 * GIB);
        assertThat(last.get("overage_units").asLong()).isEqualTo(3);
        assertThat(overageItems(pro.customer())).singleElement().satisfies(item -> assertThat(item.getQuantity())
                .isEqualTo(3L));
    }

    /**
     * Decision: a period of zero units. A renewal's is listed in usage/periods with its renewal invoice (0 units, 0
     * cents) and adds nothing to that invoice; the last period of an ended subscription with zero units makes no
     * invoice and is not listed (see the test above).
     */
    @Test
    void shouldListARenewalPeriodOfZeroUnitsWithoutAddingToItsInvoice() throws Exception {
        ProOrganization pro = proOrganization();
        report(baseUrl(), pro.account().projectId(), 100 * GIB, pro.periodStart());
        advance(pro);

        JsonNode period = awaitPeriods(pro.owner(), 1).get(0);
        assertThat(period.get("average_bytes").asLong()).isEqualTo(100 * GIB);
        assertThat(period.get("overage_units").asLong()).isZero();
        assertThat(period.get("overage_cents").asLong()).isZero();
        Invoice renewal = awaitRenewal(pro.customer(), "paid");
        assertThat(period.get("provider_invoice_id").asString()).isEqualTo(renewal.getId());
        assertThat(renewal.getAmountDue()).isEqualTo(2000L);
        assertThat(overageItems(pro.customer())).isEmpty();
    }

    /**
     * Decision: a last period of no length (canceled at once right after a renewal, while the provider's test clock
     * stands at the new period's start) has no byte-seconds: no overage, no invoice, whatever is stored.
     */
    @Test
    void shouldBillNothingForALastPeriodOfNoLength() throws Exception {
        ProOrganization pro = proOrganization();
        report(baseUrl(), pro.account().projectId(), 130 * GIB, pro.periodStart());
        advance(pro);
        awaitPeriods(pro.owner(), 1);

        Subscription canceled = stripeClient().v1().subscriptions().cancel(pro.providerSubscription());
        assertThat(canceled.getEndedAt())
                .isEqualTo(canceled.getItems().getData().get(0).getCurrentPeriodStart());
        awaitEnded(pro.owner());

        assertThat(pro.owner()
                        .get("/api/v1/usage/periods")
                        .json()
                        .get("periods")
                        .size())
                .isEqualTo(1);
        assertThat(overageItems(pro.customer())).singleElement().satisfies(line -> assertThat(
                        line.getMetadata().get("period_start"))
                .isEqualTo(pro.periodStart().toString()));
    }

    /** Moves the provider's test clock to the end of the subscription's current period. */
    void advance(ProOrganization pro) {
        assertThat(sandbox()
                        .post("/sandbox/subscriptions/" + pro.providerSubscription() + "/advance")
                        .status())
                .isEqualTo(200);
    }

    /** The owner cancels at the period's end, and the provider's clock reaches it. */
    void cancelAtPeriodEndAndAdvance(ProOrganization pro) {
        assertThat(pro.owner().post("/api/v1/billing/cancel").status()).isEqualTo(200);
        advance(pro);
    }

    void awaitEnded(Api owner) {
        await().atMost(WEBHOOK_WAIT)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> owner.get("/api/v1/billing/subscription").status() == 404);
    }

    /** The customer's storage overage items at the provider, on any invoice or pending. */
    List<InvoiceLineItem> overageItems(String customer) throws Exception {
        return stripeClient()
                .v1()
                .invoices()
                .list(InvoiceListParams.builder()
                        .setCustomer(customer)
                        .setLimit(100L)
                        .build())
                .getData()
                .stream()
                .flatMap(invoice -> overageLines(invoice).stream())
                .toList();
    }

    JsonNode awaitPeriods(Api owner, int count) {
        await().atMost(WEBHOOK_WAIT)
                .pollInterval(Duration.ofMillis(200))
                .until(() ->
                        owner.get("/api/v1/usage/periods").json().get("periods").size() >= count);
        return owner.get("/api/v1/usage/periods").json().get("periods");
    }

    Invoice awaitRenewal(String customer, String status) {
        return await().atMost(WEBHOOK_WAIT)
                .pollInterval(Duration.ofMillis(200))
                .until(
                        () -> stripeClient()
                                .v1()
                                .invoices()
                                .list(InvoiceListParams.builder()
                                        .setCustomer(customer)
                                        .build())
                                .getData()
                                .stream()
                                .filter(i -> "subscription_cycle".equals(i.getBillingReason()))
                                .filter(i -> status.equals(i.getStatus()))
                                .findFirst()
                                .orElse(null),
                        invoice -> invoice != null);
    }

    static List<InvoiceLineItem> overageLines(Invoice invoice) {
        return invoice.getLines().getData().stream()
                .filter(line -> "storage_overage".equals(line.getMetadata().get("kind")))
                .toList();
    }

    Api.Response deliver(String body) throws Exception {
        long timestamp = Instant.now().getEpochSecond();
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(provider.webhookSecret().getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String signature =
                HexFormat.of().formatHex(mac.doFinal((timestamp + "." + body).getBytes(StandardCharsets.UTF_8)));
        return api().sendRaw(
                        "POST",
                        "/api/v1/billing/webhook",
                        HttpRequest.BodyPublishers.ofString(body),
                        Map.of(
                                "Content-Type",
                                "application/json",
                                "Stripe-Signature",
                                "t=" + timestamp + ",v1=" + signature));
    }
}
