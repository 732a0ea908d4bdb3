package com.kvportal.billing;

import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.sandbox.SandboxStandIn;
import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import com.kvportal.support.SandboxEvents;
import com.kvportal.support.StorageSamples;
import com.stripe.model.Invoice;
import com.stripe.model.Subscription;
import com.stripe.param.InvoiceCreatePreviewParams;
import com.stripe.param.SubscriptionUpdateParams;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Plan changes end to end on the default configuration: the real stripe-java client and the sandbox, whose signed
 * events reach the real webhook. An upgrade at once with its proration invoice and the cut-short period's overage,
 * its preview (which changes nothing), and every refusal (which changes nothing either).
 */
class PlanChangeTest extends IntegrationTest {

    private static final Duration WEBHOOK_WAIT = Duration.ofSeconds(20);
    private static final long GIB = 1L << 30;

    /** An organization on the tier through the hosted checkout, its first invoice paid and its news delivered. */
    private record Subscribed(Api owner, Api.Account account, JsonNode subscription) {}

    private Subscribed subscribed(String tier) {
        SandboxEvents events = SandboxEvents.fromNow(jdbc);
        Api owner = api();
        Api.Account account = owner.signup();
        Api browser = api();
        String sessionId = owner.startCheckout(tier);
        Api.Response paid = browser.payCheckout(sessionId, "succeeded");
        assertThat(paid.status()).as(paid.toString()).isEqualTo(303);
        browser.follow(paid);
        events.awaitDelivered(WEBHOOK_WAIT);
        return new Subscribed(owner, account, owner.subscription());
    }

    @Test
    void shouldUpgradeAtOnceWithTheUnusedTimeCreditedAndTheCutShortPeriodsOverageBilledOnce() {
        Subscribed org = subscribed("pro");
        Api owner = org.owner();
        Instant oldStart =
                Instant.parse(org.subscription().get("current_period_start").asString());
        // 1 TiB stored from the period's start: 93 units of 10 GiB above pro's 100 GiB, whatever the period's length
        StorageSamples.report(baseUrl(), org.account().projectId(), 1024 * GIB, oldStart);

        // the preview: the team period less the credit of pro's unused time, and nothing changes
        Api.Response preview = owner.get("/api/v1/billing/change-plan/preview?tier=team");
        assertThat(preview.status()).as(preview.toString()).isEqualTo(200);
        JsonNode lines = preview.json().get("lines");
        assertThat(preview.json().get("currency").asString()).isEqualTo("usd");
        assertThat(lines.size()).isEqualTo(2);
        long total = 0;
        for (JsonNode line : lines) {
            total += line.get("amount_cents").asLong();
        }
        assertThat(lines.get(0).get("amount_cents").asLong()).isEqualTo(10000);
        long credit = lines.get(1).get("amount_cents").asLong();
        assertThat(credit).isBetween(-2000L, -1990L);
        assertThat(lines.get(1).get("description").asString()).startsWith("Unused time on Pro after ");
        long amountDue = preview.json().get("amount_due_cents").asLong();
        assertThat(amountDue).isEqualTo(total).isEqualTo(10000 + credit);
        assertThat(owner.subscription()).isEqualTo(org.subscription());
        assertThat(sandboxInvoices(org)).isOne();

        // an outgoing webhook endpoint of the organization, listening to every event
        Api.Response endpoint =
                owner.post("/api/v1/webhook-endpoints", Map.of("url", "https://hooks.example.invalid/plans"));
        assertThat(endpoint.status()).as(endpoint.toString()).isEqualTo(201);

        // the upgrade, once the period has run a little (the provider's clock counts whole seconds)
        Awaitility.await("a second passes").atMost(Duration.ofSeconds(5)).until(() -> Instant.now()
                .isAfter(oldStart.plusSeconds(2)));
        SandboxEvents events = SandboxEvents.fromNow(jdbc);
        Api.Response changed = owner.post("/api/v1/billing/change-plan", Map.of("tier", "team"));
        assertThat(changed.status()).as(changed.toString()).isEqualTo(200);
        JsonNode subscription = changed.json().get("subscription");
        assertThat(subscription.get("plan").get("tier").asString()).isEqualTo("team");
        assertThat(subscription.get("id").asString())
                .isEqualTo(org.subscription().get("id").asString());
        Instant effectiveAt = Instant.parse(changed.json().get("effective_at").asString());
        assertThat(subscription.get("current_period_start").asString()).isEqualTo(effectiveAt.toString());
        assertThat(effectiveAt).isAfter(oldStart);
        assertThat(billing.effectivePlan(org.account().organizationId()).tier()).isEqualTo(Tier.TEAM);
        events.awaitDelivered(WEBHOOK_WAIT);

        // the change's invoice, charged at once, for what the preview said (the credit may have grown by a cent)
        Awaitility.await("the change's invoice is paid")
                .atMost(WEBHOOK_WAIT)
                .until(() ->
                        owner
                                        .get("/api/v1/billing/invoices")
                                        .json()
                                        .get("invoices")
                                        .findValuesAsString("status")
                                        .stream()
                                        .filter("paid"::equals)
                                        .count()
                                >= 2);
        JsonNode changeInvoice =
                owner.get("/api/v1/billing/invoices").json().get("invoices").findValues("amount_paid_cents").stream()
                        .filter(amount -> amount.asLong() != 2000 && amount.asLong() != 93 * 200)
                        .findFirst()
                        .orElseThrow();
        assertThat(changeInvoice.asLong()).isBetween(amountDue - 2, amountDue + 2);

        // the period cut short is billed for its storage on pro, once
        Awaitility.await("the cut-short period's overage is sent")
                .atMost(WEBHOOK_WAIT)
                .until(() -> count(
                                "select count(*) from usage_charge_outbox where organization_id = ? and sent_at is not null",
                                org.account().organizationId())
                        == 1);
        assertThat(single(
                        Long.class,
                        "select quantity from usage_charge_outbox where organization_id = ? and period_start = ?",
                        org.account().organizationId(),
                        java.sql.Timestamp.from(oldStart)))
                .isEqualTo(93);
        assertThat(single(
                        java.sql.Timestamp.class,
                        "select period_end from usage_charge_outbox where organization_id = ?",
                        org.account().organizationId()))
                .isEqualTo(java.sql.Timestamp.from(effectiveAt));
        assertThat(count(
                        "select count(*) from sandbox.sandbox_invoice_items where customer = ? and metadata->>'kind' ="
                                + " 'storage_overage'",
                        org.subscription().get("provider_customer_id").asString()))
                .isOne();

        // announced to the organization's endpoint as subscription.updated with the new tier
        assertThat(jdbc.sql("select body from webhook_events where organization_id = ? and type = ?")
                        .params(org.account().organizationId(), "subscription.updated")
                        .query(String.class)
                        .list())
                .anySatisfy(body -> assertThat(body).contains("\"tier\":\"team\""));

        // recorded in the audit log, and again is already subscribed
        assertThat(count(
                        "select count(*) from audit_events where organization_id = ? and action ="
                                + " 'subscription.plan_changed'",
                        org.account().organizationId()))
                .isOne();
        assertProblem(owner.post("/api/v1/billing/change-plan", Map.of("tier", "team")), 409, "already_subscribed");
    }

    @Test
    void shouldRefuseEveryChangeItCannotMakeAndChangeNothing() {
        Subscribed org = subscribed("team");
        Api owner = org.owner();
        long invoices = sandboxInvoices(org);

        for (String path : List.of("POST", "GET")) {
            assertProblem(change(owner, path, "free"), 400, "use_cancel");
            assertProblem(change(owner, path, "team"), 409, "already_subscribed");
            assertProblem(change(owner, path, "pro"), 409, "downgrade_not_available");
            assertProblem(change(owner, path, "gold"), 400, "unknown_tier");
        }

        // nor a second subscription through a checkout of another tier
        long sessions = count(
                "select count(*) from sandbox.sandbox_checkout_sessions where customer = ?",
                org.subscription().get("provider_customer_id").asString());
        Api.Response checkout = owner.post("/api/v1/billing/checkout", Map.of("tier", "pro"));
        assertProblem(checkout, 409, "already_subscribed");
        assertThat(checkout.json().get("detail").asString()).contains("/api/v1/billing/change-plan");
        assertThat(count(
                        "select count(*) from sandbox.sandbox_checkout_sessions where customer = ?",
                        org.subscription().get("provider_customer_id").asString()))
                .isEqualTo(sessions);

        assertThat(owner.subscription()).isEqualTo(org.subscription());
        assertThat(sandboxInvoices(org)).isEqualTo(invoices);
        assertThat(single(
                        String.class,
                        "select price from sandbox.sandbox_subscriptions where id = ?",
                        org.subscription().get("provider_subscription_id").asString()))
                .isEqualTo(SandboxStandIn.PRICE_TEAM);
        assertThat(count(
                        "select count(*) from audit_events where organization_id = ? and action like"
                                + " 'subscription.plan%'",
                        org.account().organizationId()))
                .isZero();
    }

    @Test
    void shouldAnswer404WithoutALiveSubscription() {
        Api owner = signedUp();

        assertProblem(owner.post("/api/v1/billing/change-plan", Map.of("tier", "team")), 404, "subscription_not_found");
        assertProblem(owner.get("/api/v1/billing/change-plan/preview?tier=team"), 404, "subscription_not_found");
        assertProblem(owner.post("/api/v1/billing/change-plan", Map.of("tier", "free")), 400, "use_cancel");
    }

    @Test
    void theSandboxChangesAPriceAndPreviewsTheChangeAsStripeDoes() throws Exception {
        Subscribed org = subscribed("pro");
        String id = org.subscription().get("provider_subscription_id").asString();
        Subscription before = stripeClient().subscriptions().retrieve(id);
        String item = before.getItems().getData().get(0).getId();

        Invoice preview = stripeClient()
                .invoices()
                .createPreview(InvoiceCreatePreviewParams.builder()
                        .setSubscription(id)
                        .setSubscriptionDetails(InvoiceCreatePreviewParams.SubscriptionDetails.builder()
                                .addItem(InvoiceCreatePreviewParams.SubscriptionDetails.Item.builder()
                                        .setId(item)
                                        .setPrice(SandboxStandIn.PRICE_TEAM)
                                        .build())
                                .setBillingCycleAnchor(
                                        InvoiceCreatePreviewParams.SubscriptionDetails.BillingCycleAnchor.NOW)
                                .setProrationBehavior(
                                        InvoiceCreatePreviewParams.SubscriptionDetails.ProrationBehavior.ALWAYS_INVOICE)
                                .build())
                        .build());
        assertThat(preview.getBillingReason()).isEqualTo("subscription_update");
        assertThat(preview.getLines().getData()).hasSize(2);
        assertThat(preview.getAmountDue())
                .isEqualTo(preview.getLines().getData().stream()
                        .mapToLong(line -> line.getAmount())
                        .sum());
        assertThat(stripeClient()
                        .subscriptions()
                        .retrieve(id)
                        .getItems()
                        .getData()
                        .get(0)
                        .getPrice()
                        .getId())
                .as("a preview changes nothing")
                .isEqualTo(SandboxStandIn.PRICE_PRO);

        Subscription after = stripeClient()
                .subscriptions()
                .update(
                        id,
                        SubscriptionUpdateParams.builder()
                                .addItem(SubscriptionUpdateParams.Item.builder()
                                        .setId(item)
                                        .setPrice(SandboxStandIn.PRICE_TEAM)
                                        .build())
                                .setBillingCycleAnchor(SubscriptionUpdateParams.BillingCycleAnchor.NOW)
                                .setProrationBehavior(SubscriptionUpdateParams.ProrationBehavior.ALWAYS_INVOICE)
                                .build());
        assertThat(after.getItems().getData().get(0).getPrice().getId()).isEqualTo(SandboxStandIn.PRICE_TEAM);
        assertThat(after.getItems().getData().get(0).getId()).isEqualTo(item);
        assertThat(after.getBillingCycleAnchor())
                .isEqualTo(after.getItems().getData().get(0).getCurrentPeriodStart());
        Invoice latest = stripeClient().invoices().retrieve(after.getLatestInvoice());
        assertThat(latest.getBillingReason()).isEqualTo("subscription_update");
        assertThat(latest.getStatus()).isEqualTo("paid");
        assertThat(latest.getAmountPaid()).isEqualTo(preview.getAmountDue());

        // only the behaviour the sandbox runs is taken; anything else is refused in Stripe's shape
        Api.Response refused = sandbox()
                .send(
                        "POST",
                        "/sandbox/stripe/v1/subscriptions/" + id,
                        "items[0][id]=" + item + "&items[0][price]=" + SandboxStandIn.PRICE_PRO
                                + "&proration_behavior=create_prorations",
                        "application/x-www-form-urlencoded");
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.json().get("error").get("type").asString()).isEqualTo("invalid_request_error");
    }

    private static Api.Response change(Api owner, String method, String tier) {
        return method.equals("POST")
                ? owner.post("/api/v1/billing/change-plan", Map.of("tier", tier))
                : owner.get("/api/v1/billing/change-plan/preview?tier=" + tier);
    }

    private long sandboxInvoices(Subscribed org) {
        return count(
                "select count(*) from sandbox.sandbox_invoices where customer = ?",
                org.subscription().get("provider_customer_id").asString());
    }

    @org.springframework.beans.factory.annotation.Autowired
    Billing billing;
}
