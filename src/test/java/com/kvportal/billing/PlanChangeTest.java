package com.kvportal.billing;

import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.billing.ids.ProviderSubscriptionId;
import com.kvportal.billing.subscription.SubscriptionLedger;
import com.kvportal.sandbox.SandboxStandIn;
import com.kvportal.support.Api;
import com.kvportal.support.Concurrently;
import com.kvportal.support.IntegrationTest;
import com.kvportal.support.SandboxEvents;
import com.kvportal.support.StorageSamples;
import com.stripe.model.Invoice;
import com.stripe.model.Subscription;
import com.stripe.model.SubscriptionItem;
import com.stripe.model.SubscriptionSchedule;
import com.stripe.param.InvoiceCreatePreviewParams;
import com.stripe.param.SubscriptionScheduleCreateParams;
import com.stripe.param.SubscriptionScheduleUpdateParams;
import com.stripe.param.SubscriptionUpdateParams;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Plan changes end to end on the default configuration: the real stripe-java client and the sandbox, whose signed
 * events reach the real webhook. An upgrade at once with its proration invoice and the cut-short period's overage,
 * its preview (which changes nothing), a downgrade at the period's end through a subscription schedule (its renewal,
 * its cancellation, a cancellation of the subscription that calls it off), and every refusal (which changes nothing
 * either).
 */
class PlanChangeTest extends IntegrationTest {

    private static final Duration WEBHOOK_WAIT = Duration.ofSeconds(20);
    private static final long GIB = 1L << 30;

    /** An organization on the tier through the hosted checkout, its first invoice paid and its news delivered. */
    private record Subscribed(Api owner, Api.Account account, JsonNode subscription) {

        /** The subscription's id at the provider. */
        String providerId() {
            return subscription.get("provider_subscription_id").asString();
        }

        /** The end of the subscription's current period, as the API writes it. */
        String periodEnd() {
            return subscription.get("current_period_end").asString();
        }
    }

    /** Ends the subscription's current period at the provider (a test clock's advance) and awaits its news. */
    private void endPeriod(String providerId) {
        SandboxEvents events = SandboxEvents.fromNow(jdbc);
        Api.Response advanced = sandbox().post("/sandbox/subscriptions/" + providerId + "/advance");
        assertThat(advanced.status()).as(advanced.toString()).isEqualTo(200);
        events.awaitDelivered(WEBHOOK_WAIT);
    }

    private Subscribed subscribed(String tier) {
        Api owner = api();
        Api.Account account = owner.signup();
        SandboxCheckout.pay(jdbc, owner, api(), tier, WEBHOOK_WAIT);
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
        assertThat(SandboxCheckout.chargedQuantity(jdbc, org.account().organizationId(), oldStart))
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
                        String.class, "select price from sandbox.sandbox_subscriptions where id = ?", org.providerId()))
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
        assertProblem(owner.delete("/api/v1/billing/change-plan"), 404, "subscription_not_found");
    }

    @Test
    void theSandboxChangesAPriceAndPreviewsTheChangeAsStripeDoes() throws Exception {
        Subscribed org = subscribed("pro");
        String id = org.providerId();
        String item = itemAtProvider(id).getId();

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
        assertThat(itemAtProvider(id).getPrice().getId())
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
        assertThat(item(after).getPrice().getId()).isEqualTo(SandboxStandIn.PRICE_TEAM);
        assertThat(item(after).getId()).isEqualTo(item);
        assertThat(after.getBillingCycleAnchor()).isEqualTo(item(after).getCurrentPeriodStart());
        Invoice latest = stripeClient().invoices().retrieve(after.getLatestInvoice());
        assertThat(latest.getBillingReason()).isEqualTo("subscription_update");
        assertThat(latest.getStatus()).isEqualTo("paid");
        assertThat(latest.getAmountPaid()).isEqualTo(preview.getAmountDue());

        // only the behaviour the sandbox runs is taken; anything else is refused in Stripe's shape
        assertRefusedAsStripeDoes(postToSandboxStripe(
                "subscriptions/" + id,
                "items[0][id]=" + item + "&items[0][price]=" + SandboxStandIn.PRICE_PRO
                        + "&proration_behavior=create_prorations"));
    }

    @Test
    void shouldDowngradeAtThePeriodsEndWithTheEndedPeriodBilledOnTheOldPlan() throws Exception {
        Subscribed org = subscribed("team");
        Api owner = org.owner();
        String providerId = org.providerId();
        String periodEnd = org.periodEnd();
        Instant periodStart =
                Instant.parse(org.subscription().get("current_period_start").asString());
        // 200 GiB for the whole period: within team's 1 TiB, 10 units above pro's 100 GiB
        StorageSamples.report(baseUrl(), org.account().projectId(), 200 * GIB, periodStart);
        assertThat(org.subscription().get("scheduled_change").isNull()).isTrue();
        long invoices = sandboxInvoices(org);

        // the preview: nothing is charged now
        Api.Response preview = owner.get("/api/v1/billing/change-plan/preview?tier=pro");
        assertThat(preview.status()).as(preview.toString()).isEqualTo(200);
        assertThat(preview.json().get("amount_due_cents").asLong()).isZero();
        assertThat(preview.json().get("lines").size()).isZero();

        Api.Response endpoint =
                owner.post("/api/v1/webhook-endpoints", Map.of("url", "https://hooks.example.invalid/plans"));
        assertThat(endpoint.status()).as(endpoint.toString()).isEqualTo(201);
        Api.Response scheduled = owner.post("/api/v1/billing/change-plan", Map.of("tier", "pro"));
        assertThat(scheduled.status()).as(scheduled.toString()).isEqualTo(200);
        JsonNode subscription = scheduled.json().get("subscription");
        assertThat(subscription.get("plan").get("tier").asString()).isEqualTo("team");
        assertThat(subscription.get("scheduled_change").get("tier").asString()).isEqualTo("pro");
        assertThat(subscription.get("scheduled_change").get("effective_at").asString())
                .isEqualTo(periodEnd);
        assertThat(scheduled.json().get("effective_at").asString()).isEqualTo(periodEnd);
        assertThat(owner.subscription()).isEqualTo(subscription);
        assertThat(billing.effectivePlan(org.account().organizationId()).tier()).isEqualTo(Tier.TEAM);
        assertThat(sandboxInvoices(org)).as("nothing is charged now").isEqualTo(invoices);

        // at the provider: a schedule of two phases, team until the period ends, then pro, released after
        Subscription atProvider = stripeClient().subscriptions().retrieve(providerId);
        assertThat(atProvider.getSchedule()).startsWith("sub_sched_");
        SubscriptionSchedule schedule = stripeClient().subscriptionSchedules().retrieve(atProvider.getSchedule());
        assertThat(schedule.getStatus()).isEqualTo("active");
        assertThat(schedule.getEndBehavior()).isEqualTo("release");
        assertThat(schedule.getPhases()).hasSize(2);
        assertThat(schedule.getPhases().get(0).getItems().get(0).getPrice()).isEqualTo(SandboxStandIn.PRICE_TEAM);
        assertThat(Instant.ofEpochSecond(schedule.getPhases().get(0).getEndDate())
                        .toString())
                .isEqualTo(periodEnd);
        assertThat(schedule.getPhases().get(1).getItems().get(0).getPrice()).isEqualTo(SandboxStandIn.PRICE_PRO);
        assertThat(item(atProvider).getPrice().getId()).isEqualTo(SandboxStandIn.PRICE_TEAM);

        // asking again changes nothing more
        Api.Response again = owner.post("/api/v1/billing/change-plan", Map.of("tier", "pro"));
        assertThat(again.status()).as(again.toString()).isEqualTo(200);
        assertThat(again.json().get("subscription")).isEqualTo(subscription);
        assertThat(stripeClient().subscriptions().retrieve(providerId).getSchedule())
                .isEqualTo(atProvider.getSchedule());
        assertThat(auditLines(org, "subscription.plan_change_scheduled")).isOne();
        assertThat(jdbc.sql("select body from webhook_events where organization_id = ? and type = ?")
                        .params(org.account().organizationId(), "subscription.updated")
                        .query(String.class)
                        .list())
                .anySatisfy(body -> assertThat(body).contains("\"scheduled_change\":{\"tier\":\"pro\""));

        // the period ends: the renewal bills pro's price, and the ended period's storage on team (no overage)
        endPeriod(providerId);
        Awaitility.await("the renewal is paid and the plan changed")
                .atMost(WEBHOOK_WAIT)
                .until(() ->
                        owner.subscription().get("plan").get("tier").asString().equals("pro")
                                && count(
                                                "select count(*) from sandbox.sandbox_invoices where customer = ? and status ="
                                                        + " 'paid' and billing_reason = 'subscription_cycle'",
                                                org.subscription()
                                                        .get("provider_customer_id")
                                                        .asString())
                                        == 1);
        JsonNode renewed = owner.subscription();
        assertThat(renewed.get("scheduled_change").isNull()).isTrue();
        assertThat(renewed.get("current_period_start").asString()).isEqualTo(periodEnd);
        assertThat(billing.effectivePlan(org.account().organizationId()).tier()).isEqualTo(Tier.PRO);
        assertThat(single(
                        Long.class,
                        "select amount_paid from sandbox.sandbox_invoices where customer = ? and billing_reason ="
                                + " 'subscription_cycle'",
                        org.subscription().get("provider_customer_id").asString()))
                .isEqualTo(2000L);
        Awaitility.await("the ended period's charge is settled")
                .atMost(WEBHOOK_WAIT)
                .until(() -> count(
                                "select count(*) from usage_charge_outbox where organization_id = ? and period_start = ?",
                                org.account().organizationId(),
                                java.sql.Timestamp.from(periodStart))
                        == 1);
        assertThat(SandboxCheckout.chargedQuantity(jdbc, org.account().organizationId(), periodStart))
                .as("the period that ended was team's: 200 GiB is within its allowance")
                .isZero();
        assertThat(count(
                        "select count(*) from sandbox.sandbox_invoice_items where customer = ? and metadata->>'kind' ="
                                + " 'storage_overage'",
                        org.subscription().get("provider_customer_id").asString()))
                .isZero();
        assertThat(auditLines(org, "subscription.plan_changed")).isOne();
        // whichever of the renewal's events comes first, the period that ended is team's and the next one pro's
        ProviderSubscriptionId provider = new ProviderSubscriptionId(providerId);
        UUID organization = org.account().organizationId();
        Instant nextEnd = Instant.parse(renewed.get("current_period_end").asString());
        Optional<Tier> ended =
                transactions.execute(tx -> ledger.tierOf(organization, provider, Instant.parse(periodEnd)));
        Optional<Tier> next = transactions.execute(tx -> ledger.tierOf(organization, provider, nextEnd));
        assertThat(ended).contains(Tier.TEAM);
        assertThat(next).contains(Tier.PRO);
    }

    @Test
    void shouldCancelAScheduledDowngradeAndAnswer404WhenNoneIsScheduled() throws Exception {
        Subscribed org = subscribed("team");
        Api owner = org.owner();
        String providerId = org.providerId();

        // nothing scheduled: 404, and nothing changes
        assertProblem(owner.delete("/api/v1/billing/change-plan"), 404, "no_scheduled_change");
        assertThat(owner.subscription()).isEqualTo(org.subscription());
        assertThat(auditLines(org, "subscription.plan_change_canceled")).isZero();

        Api.Response scheduled = owner.post("/api/v1/billing/change-plan", Map.of("tier", "pro"));
        assertThat(scheduled.status()).as(scheduled.toString()).isEqualTo(200);
        String scheduleId = stripeClient().subscriptions().retrieve(providerId).getSchedule();
        // the tier it has is refused as before, and the scheduled change stays
        assertProblem(owner.post("/api/v1/billing/change-plan", Map.of("tier", "team")), 409, "already_subscribed");
        assertThat(owner.subscription()).isEqualTo(scheduled.json().get("subscription"));

        Api.Response canceled = owner.delete("/api/v1/billing/change-plan");
        assertThat(canceled.status()).as(canceled.toString()).isEqualTo(200);
        assertThat(canceled.json().get("subscription").get("scheduled_change").isNull())
                .isTrue();
        assertThat(canceled.json().get("subscription").get("plan").get("tier").asString())
                .isEqualTo("team");
        assertThat(stripeClient().subscriptions().retrieve(providerId).getSchedule())
                .isNull();
        assertThat(stripeClient().subscriptionSchedules().retrieve(scheduleId).getStatus())
                .isEqualTo("released");
        assertThat(auditLines(org, "subscription.plan_change_canceled")).isOne();
        assertProblem(owner.delete("/api/v1/billing/change-plan"), 404, "no_scheduled_change");

        // the period ends: it renews on team
        endPeriod(providerId);
        assertThat(single(String.class, "select price from sandbox.sandbox_subscriptions where id = ?", providerId))
                .isEqualTo(SandboxStandIn.PRICE_TEAM);
        assertThat(owner.subscription().get("plan").get("tier").asString()).isEqualTo("team");
    }

    @Test
    void concurrentDowngradesScheduleOneChangeAndAnswerItToEach() throws Exception {
        Subscribed org = subscribed("team");
        Api owner = org.owner();
        String providerId = org.providerId();
        long invoices = sandboxInvoices(org);
        Callable<Api.Response> downgrade = () -> owner.post("/api/v1/billing/change-plan", Map.of("tier", "pro"));
        List<Api.Response> answers = Concurrently.each(List.of(downgrade, downgrade, downgrade, downgrade));

        // each caller is answered the one downgrade, as asking for it again is
        for (Api.Response answer : answers) {
            assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
            assertThat(answer.json().get("effective_at").asString()).isEqualTo(org.periodEnd());
            JsonNode change = answer.json().get("subscription").get("scheduled_change");
            assertThat(change.get("tier").asString()).as(answer.toString()).isEqualTo("pro");
            assertThat(change.get("effective_at").asString()).isEqualTo(org.periodEnd());
        }
        // one schedule made at the provider, none made and released on the way, one audit line, nothing charged
        assertThat(count(
                        "select count(*) from sandbox.sandbox_subscription_schedules where subscription = ?",
                        providerId))
                .isOne();
        String scheduleId = stripeClient().subscriptions().retrieve(providerId).getSchedule();
        assertThat(scheduleId).startsWith("sub_sched_");
        assertThat(stripeClient().subscriptionSchedules().retrieve(scheduleId).getStatus())
                .isEqualTo("active");
        assertThat(auditLines(org, "subscription.plan_change_scheduled")).isOne();
        assertThat(auditLines(org, "subscription.plan_change_canceled")).isZero();
        JsonNode now = owner.subscription();
        assertThat(now.get("plan").get("tier").asString()).isEqualTo("team");
        assertThat(now.get("scheduled_change").get("tier").asString()).isEqualTo("pro");
        assertThat(sandboxInvoices(org)).isEqualTo(invoices);
    }

    @Test
    void aDowngradeAndACancellationAtOnceEndInOneOfTheirOrdersAgreeingWithTheProvider() throws Exception {
        Subscribed org = subscribed("team");
        Api owner = org.owner();
        String providerId = org.providerId();
        List<Api.Response> answers = Concurrently.each(List.of(
                () -> owner.post("/api/v1/billing/change-plan", Map.of("tier", "pro")),
                () -> owner.post("/api/v1/billing/cancel")));
        Api.Response downgraded = answers.get(0);
        Api.Response canceled = answers.get(1);

        assertThat(downgraded.status()).as(downgraded.toString()).isEqualTo(200);
        assertThat(canceled.status()).as(canceled.toString()).isEqualTo(200);
        // the later one wins, whole: a downgrade after the cancellation takes it back (the subscription goes on, on
        // pro); a cancellation after the downgrade calls it off (it ends with the period)
        JsonNode now = owner.subscription();
        Subscription atProvider = stripeClient().subscriptions().retrieve(providerId);
        boolean scheduled = !now.get("scheduled_change").isNull();
        if (scheduled) {
            assertThat(now.get("scheduled_change").get("tier").asString()).isEqualTo("pro");
            assertThat(now.get("cancel_at").isNull()).as(now.toString()).isTrue();
            assertThat(atProvider.getSchedule()).startsWith("sub_sched_");
            assertThat(atProvider.getCancelAtPeriodEnd()).isFalse();
        } else {
            assertThat(now.get("cancel_at").asString()).as(now.toString()).isEqualTo(org.periodEnd());
            assertThat(atProvider.getSchedule()).isNull();
            assertThat(atProvider.getCancelAtPeriodEnd()).isTrue();
            assertThat(auditLines(org, "subscription.plan_change_canceled")).isOne();
        }
        assertThat(count(
                        "select count(*) from sandbox.sandbox_subscription_schedules where subscription = ? and status"
                                + " in ('not_started', 'active')",
                        providerId))
                .isEqualTo(scheduled ? 1 : 0);
        assertThat(auditLines(org, "subscription.plan_change_scheduled")).isOne();
        assertThat(now.get("plan").get("tier").asString()).isEqualTo("team");
    }

    @Test
    void aCancellationCallsOffTheScheduledDowngrade() throws Exception {
        Subscribed org = subscribed("team");
        Api owner = org.owner();
        String providerId = org.providerId();
        assertThat(owner.post("/api/v1/billing/change-plan", Map.of("tier", "pro"))
                        .status())
                .isEqualTo(200);

        Api.Response canceled = owner.post("/api/v1/billing/cancel");
        assertThat(canceled.status()).as(canceled.toString()).isEqualTo(200);
        JsonNode subscription = canceled.json().get("subscription");
        assertThat(subscription.get("cancel_at").asString()).isEqualTo(org.periodEnd());
        assertThat(subscription.get("scheduled_change").isNull()).isTrue();
        Subscription atProvider = stripeClient().subscriptions().retrieve(providerId);
        assertThat(atProvider.getSchedule()).isNull();
        assertThat(atProvider.getCancelAtPeriodEnd()).isTrue();
        assertThat(auditLines(org, "subscription.plan_change_canceled")).isOne();
    }

    @Test
    void aDowngradeOfASubscriptionSetToEndResumesItOnTheCheaperPlan() throws Exception {
        Subscribed org = subscribed("team");
        Api owner = org.owner();
        String providerId = org.providerId();
        assertThat(owner.post("/api/v1/billing/cancel").status()).isEqualTo(200);
        assertThat(owner.subscription().get("cancel_at").isNull()).isFalse();

        Api.Response scheduled = owner.post("/api/v1/billing/change-plan", Map.of("tier", "pro"));
        assertThat(scheduled.status()).as(scheduled.toString()).isEqualTo(200);
        JsonNode subscription = scheduled.json().get("subscription");
        assertThat(subscription.get("cancel_at").isNull()).isTrue();
        assertThat(subscription.get("scheduled_change").get("tier").asString()).isEqualTo("pro");
        assertThat(stripeClient().subscriptions().retrieve(providerId).getCancelAtPeriodEnd())
                .isFalse();

        // the period ends: it renews, on pro
        endPeriod(providerId);
        Awaitility.await("the renewal on pro")
                .atMost(WEBHOOK_WAIT)
                .until(() ->
                        owner.subscription().get("plan").get("tier").asString().equals("pro"));
        assertThat(owner.subscription().get("status").asString()).isEqualTo("active");
    }

    @Test
    void theSandboxRunsSubscriptionSchedulesAsStripeDoes() throws Exception {
        Subscribed org = subscribed("team");
        String id = org.providerId();
        SubscriptionItem item = itemAtProvider(id);
        long start = item.getCurrentPeriodStart();
        long end = item.getCurrentPeriodEnd();

        SubscriptionSchedule created = scheduleAtProvider(id);
        assertThat(created.getId()).startsWith("sub_sched_");
        assertThat(created.getSubscription()).isEqualTo(id);
        assertThat(created.getStatus()).isEqualTo("active");
        assertThat(created.getPhases()).hasSize(1);
        assertThat(created.getPhases().get(0).getStartDate()).isEqualTo(start);
        assertThat(created.getPhases().get(0).getEndDate()).isEqualTo(end);
        assertThat(created.getCurrentPhase().getStartDate()).isEqualTo(start);
        assertThat(stripeClient().subscriptions().retrieve(id).getSchedule()).isEqualTo(created.getId());

        // a second schedule of one subscription, and a first phase that moves its start, are refused
        assertRefusedAsStripeDoes(postToSandboxStripe("subscription_schedules", "from_subscription=" + id));
        Api.Response moved = postToSandboxStripe(
                "subscription_schedules/" + created.getId(),
                "phases[0][items][0][price]=" + SandboxStandIn.PRICE_TEAM + "&phases[0][start_date]=" + (start + 1));
        assertThat(moved.status()).isEqualTo(400);

        SubscriptionSchedule updated = stripeClient()
                .subscriptionSchedules()
                .update(
                        created.getId(),
                        SubscriptionScheduleUpdateParams.builder()
                                .addPhase(SubscriptionScheduleUpdateParams.Phase.builder()
                                        .addItem(SubscriptionScheduleUpdateParams.Phase.Item.builder()
                                                .setPrice(SandboxStandIn.PRICE_TEAM)
                                                .build())
                                        .setStartDate(start)
                                        .setEndDate(end)
                                        .build())
                                .addPhase(SubscriptionScheduleUpdateParams.Phase.builder()
                                        .addItem(SubscriptionScheduleUpdateParams.Phase.Item.builder()
                                                .setPrice(SandboxStandIn.PRICE_PRO)
                                                .build())
                                        .build())
                                .setEndBehavior(SubscriptionScheduleUpdateParams.EndBehavior.RELEASE)
                                .build());
        assertThat(updated.getPhases()).hasSize(2);
        assertThat(updated.getPhases().get(1).getStartDate()).isEqualTo(end);
        assertThat(updated.getPhases().get(1).getEndDate()).isGreaterThan(end);

        SubscriptionSchedule released = stripeClient().subscriptionSchedules().release(created.getId());
        assertThat(released.getStatus()).isEqualTo("released");
        assertThat(released.getSubscription()).isNull();
        assertThat(released.getReleasedSubscription()).isEqualTo(id);
        assertThat(stripeClient().subscriptions().retrieve(id).getSchedule()).isNull();
        Api.Response twice = postToSandboxStripe("subscription_schedules/" + created.getId() + "/release", "");
        assertThat(twice.status()).isEqualTo(400);
        assertThat(count(
                        "select count(*) from sandbox.sandbox_events where type like 'subscription_schedule.%'"
                                + " and payload::text like ?",
                        "%" + created.getId() + "%"))
                .isEqualTo(3);

        // canceling a schedule ends its subscription now
        SubscriptionSchedule another = scheduleAtProvider(id);
        SubscriptionSchedule canceled = stripeClient().subscriptionSchedules().cancel(another.getId());
        assertThat(canceled.getStatus()).isEqualTo("canceled");
        assertThat(stripeClient().subscriptions().retrieve(id).getStatus()).isEqualTo("canceled");
    }

    @Test
    void theSandboxCancelsTheScheduleOfASubscriptionThatEnds() throws Exception {
        Subscribed org = subscribed("team");
        String id = org.providerId();
        SubscriptionSchedule schedule = scheduleAtProvider(id);
        // a subscription a schedule governs takes no cancellation of its own, as at Stripe
        Api.Response refused = postToSandboxStripe("subscriptions/" + id, "cancel_at_period_end=true");
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.json().get("error").get("message").asString()).contains(schedule.getId());
        assertThat(stripeClient().subscriptions().retrieve(id).getCancelAtPeriodEnd())
                .isFalse();

        stripeClient().subscriptions().cancel(id);
        assertThat(stripeClient()
                        .subscriptionSchedules()
                        .retrieve(schedule.getId())
                        .getStatus())
                .isEqualTo("canceled");
    }

    private long auditLines(Subscribed org, String action) {
        return count(
                "select count(*) from audit_events where organization_id = ? and action = ?",
                org.account().organizationId(),
                action);
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

    @org.springframework.beans.factory.annotation.Autowired
    SubscriptionLedger ledger;

    @org.springframework.beans.factory.annotation.Autowired
    org.springframework.transaction.support.TransactionTemplate transactions;

    /** The provider's first (here: only) item of the subscription, as the sandbox holds it now. */
    private SubscriptionItem itemAtProvider(String providerId) throws Exception {
        return item(stripeClient().subscriptions().retrieve(providerId));
    }

    private static SubscriptionItem item(Subscription subscription) {
        return subscription.getItems().getData().get(0);
    }

    /** A subscription schedule made at the provider from the subscription, as the service makes one. */
    private SubscriptionSchedule scheduleAtProvider(String providerId) throws Exception {
        return stripeClient()
                .subscriptionSchedules()
                .create(SubscriptionScheduleCreateParams.builder()
                        .setFromSubscription(providerId)
                        .build());
    }

    /** Posts a form to the sandbox's Stripe API, as stripe-java would send it. */
    private Api.Response postToSandboxStripe(String path, String form) {
        return sandbox().send("POST", "/sandbox/stripe/v1/" + path, form, "application/x-www-form-urlencoded");
    }

    /** The sandbox refused the request as Stripe does: 400, an {@code invalid_request_error}. */
    private static void assertRefusedAsStripeDoes(Api.Response refused) {
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.json().get("error").get("type").asString()).isEqualTo("invalid_request_error");
    }
}
