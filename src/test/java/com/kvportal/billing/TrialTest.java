package com.kvportal.billing;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.sandbox.SandboxStandIn;
import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import com.kvportal.support.SandboxEvents;
import com.kvportal.support.StorageSamples;
import java.time.Duration;
import java.time.Instant;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Trials with {@code TRIAL_DAYS} set, end to end on the real stripe-java client and the sandbox: an organization's
 * first checkout starts a trial ($0 first invoice, status trialing, trial_end), a second subscription of the same
 * organization gets none, the trial's end charges the first period as a renewal with no overage for the trial, and
 * during the trial the allowance is a hard limit.
 */
@TestPropertySource(properties = "kvportal.billing.plans.trial-days=14")
class TrialTest extends IntegrationTest {

    private static final Duration WEBHOOK_WAIT = Duration.ofSeconds(20);
    private static final long GIB = 1L << 30;
    private static final long DAY = 86_400;

    private record Subscribed(Api owner, Api.Account account, JsonNode subscription, String sessionId) {}

    private Subscribed subscribed(Api owner, Api.Account account) {
        return subscribed(owner, account, "pro");
    }

    private Subscribed subscribed(Api owner, Api.Account account, String tier) {
        String sessionId = SandboxCheckout.pay(jdbc, owner, api(), tier, WEBHOOK_WAIT);
        return new Subscribed(owner, account, owner.subscription(), sessionId);
    }

    private Subscribed subscribed() {
        Api owner = api();
        return subscribed(owner, owner.signup());
    }

    @Test
    void shouldStartTheFirstCheckoutInATrialWithAZeroInvoiceAndAnAuditLine() {
        Subscribed org = subscribed();
        JsonNode subscription = org.subscription();

        assertThat(subscription.get("status").asString()).isEqualTo("trialing");
        assertThat(subscription.get("plan").get("trial_days").asInt()).isEqualTo(14);
        Instant start = Instant.parse(subscription.get("current_period_start").asString());
        Instant trialEnd = Instant.parse(subscription.get("trial_end").asString());
        assertThat(trialEnd).isEqualTo(start.plusSeconds(14 * DAY));
        assertThat(subscription.get("current_period_end").asString()).isEqualTo(trialEnd.toString());
        assertThat(billing.effectivePlan(org.account().organizationId()).tier()).isEqualTo(Tier.PRO);
        assertThat(single(
                        Long.class,
                        "select trial_period_days from sandbox.sandbox_checkout_sessions where id = ?",
                        org.sessionId()))
                .isEqualTo(14L);
        // Stripe's $0 invoice at the trial's start, paid without a charge
        String customer = subscription.get("provider_customer_id").asString();
        assertThat(single(
                        String.class,
                        "select status || ' ' || amount_due || ' ' || amount_paid from sandbox.sandbox_invoices"
                                + " where customer = ?",
                        customer))
                .isEqualTo("paid 0 0");
        assertThat(count(
                        "select count(*) from audit_events where organization_id = ? and action = ?",
                        org.account().organizationId(),
                        "subscription.trial_started"))
                .isOne();
    }

    @Test
    void shouldGiveNoSecondTrialToAnOrganizationThatHadASubscription() throws Exception {
        Api owner = api();
        Api.Account account = owner.signup();
        Subscribed first = subscribed(owner, account);
        String providerId = first.subscription().get("provider_subscription_id").asString();
        SandboxEvents events = SandboxEvents.fromNow(jdbc);
        stripeClient().subscriptions().cancel(providerId);
        events.awaitDelivered(WEBHOOK_WAIT);
        Awaitility.await("the first subscription ended")
                .atMost(WEBHOOK_WAIT)
                .until(() -> billing.effectivePlan(account.organizationId()).tier() == Tier.FREE);

        Subscribed second = subscribed(owner, account);

        assertThat(second.subscription().get("provider_subscription_id").asString())
                .isNotEqualTo(providerId);
        assertThat(second.subscription().get("status").asString()).isEqualTo("active");
        assertThat(second.subscription().get("trial_end").isNull()).isTrue();
        assertThat(count(
                        "select count(*) from sandbox.sandbox_checkout_sessions where id = ? and trial_period_days"
                                + " is null",
                        second.sessionId()))
                .isOne();
        assertThat(count(
                        "select count(*) from sandbox.sandbox_invoices where subscription = ? and amount_paid = 2000",
                        second.subscription().get("provider_subscription_id").asString()))
                .isOne();
        assertThat(count(
                        "select count(*) from audit_events where organization_id = ? and action = ?",
                        account.organizationId(),
                        "subscription.trial_started"))
                .isOne();
    }

    @Test
    void shouldHoldWritesAtTheAllowanceDuringTheTrialAndChargeTheFirstPeriodWithoutOverageAtItsEnd() {
        Subscribed org = subscribed();
        Api owner = org.owner();
        JsonNode subscription = org.subscription();
        Instant trialStart =
                Instant.parse(subscription.get("current_period_start").asString());
        String trialEnd = subscription.get("trial_end").asString();
        String providerId = subscription.get("provider_subscription_id").asString();
        String customer = subscription.get("provider_customer_id").asString();

        // 150 GiB through the whole trial: above pro's 100 GiB, which is a hard limit while trialing
        StorageSamples.report(baseUrl(), org.account().projectId(), 150 * GIB, trialStart);
        String key = owner.createKey("backend");
        Awaitility.await("verify knows the pro trial")
                .atMost(Duration.ofSeconds(10))
                .until(() -> verify(key).get("tier").asString().equals("pro"));
        JsonNode storage = verify(key).get("storage");
        assertThat(storage.get("write_allowed").asBoolean()).isFalse();
        assertThat(storage.get("reason").asString()).isEqualTo("allowance_reached");
        assertThat(storage.get("allowance_bytes").asLong()).isEqualTo(100 * GIB);

        // the trial ends: active, a new period from the trial's end, its invoice charged to the card on file
        SandboxEvents events = SandboxEvents.fromNow(jdbc);
        Api.Response advanced = sandbox().post("/sandbox/subscriptions/" + providerId + "/advance");
        assertThat(advanced.status()).as(advanced.toString()).isEqualTo(200);
        assertThat(advanced.json().get("status").asString()).isEqualTo("active");
        events.awaitDelivered(WEBHOOK_WAIT);
        Awaitility.await("the first period's invoice is paid")
                .atMost(WEBHOOK_WAIT)
                .until(() -> paidRenewals(customer) == 1);
        assertThat(renewalPaid(customer))
                .as("pro's price, no overage for the trial")
                .isEqualTo(2000L);
        Awaitility.await("the subscription is active")
                .atMost(WEBHOOK_WAIT)
                .until(() -> owner.subscription().get("status").asString().equals("active"));
        JsonNode active = owner.subscription();
        assertThat(active.get("current_period_start").asString()).isEqualTo(trialEnd);
        assertThat(active.get("trial_end").asString()).isEqualTo(trialEnd);
        assertThat(SandboxCheckout.chargedQuantity(jdbc, org.account().organizationId(), trialStart))
                .isZero();

        // after the trial, the plan bills overage again: writes go on above the allowance
        Awaitility.await("writes are allowed again")
                .atMost(Duration.ofSeconds(10))
                .until(() -> verify(key).get("storage").get("write_allowed").asBoolean());
    }

    @Test
    void shouldKeepTheTrialsEndThroughAnUpgradeAndChargeNothingBeforeIt() {
        Subscribed org = subscribed();
        JsonNode before = org.subscription();
        String customer = before.get("provider_customer_id").asString();

        Api.Response changed = org.owner().post("/api/v1/billing/change-plan", java.util.Map.of("tier", "team"));

        assertThat(changed.status()).as(changed.toString()).isEqualTo(200);
        JsonNode after = changed.json().get("subscription");
        assertThat(after.get("plan").get("tier").asString()).isEqualTo("team");
        assertThat(after.get("status").asString()).isEqualTo("trialing");
        assertThat(after.get("trial_end").asString())
                .isEqualTo(before.get("trial_end").asString());
        assertThat(after.get("current_period_end").asString())
                .isEqualTo(before.get("trial_end").asString());
        assertThat(count("select count(*) from sandbox.sandbox_invoices where customer = ?", customer))
                .as("only the trial's $0 invoice")
                .isOne();
        assertThat(single(
                        String.class,
                        "select trial_end::text from sandbox.sandbox_subscriptions where id = ?",
                        before.get("provider_subscription_id").asString()))
                .isEqualTo(String.valueOf(
                        Instant.parse(before.get("trial_end").asString()).getEpochSecond()));
    }

    @Test
    void shouldPreviewAnUpgradeDuringTheTrialAsNothingChargedNowAndMakeItEffectiveNow() {
        Subscribed org = subscribed();
        Api owner = org.owner();
        JsonNode before = org.subscription();
        Instant trialStart = Instant.parse(before.get("current_period_start").asString());
        String customer = before.get("provider_customer_id").asString();
        // the provider's clock counts whole seconds: let the trial run a little, so that now is not its start
        Awaitility.await("two seconds pass").atMost(Duration.ofSeconds(5)).until(() -> Instant.now()
                .isAfter(trialStart.plusSeconds(2)));

        // the change keeps the trial: it charges nothing now, and the preview says so; nothing changes
        Api.Response preview = owner.get("/api/v1/billing/change-plan/preview?tier=team");
        assertThat(preview.status()).as(preview.toString()).isEqualTo(200);
        assertThat(preview.json().get("amount_due_cents").asLong()).isZero();
        assertThat(preview.json().get("currency").asString()).isEqualTo("usd");
        assertThat(preview.json().get("lines").size()).isZero();
        assertThat(owner.subscription()).isEqualTo(before);

        Instant asked = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        Api.Response changed = owner.post("/api/v1/billing/change-plan", java.util.Map.of("tier", "team"));
        Instant answered = Instant.now();

        assertThat(changed.status()).as(changed.toString()).isEqualTo(200);
        // team from now (the trial's period goes on): effective_at is the change's moment, not the trial's start
        Instant effectiveAt = Instant.parse(changed.json().get("effective_at").asString());
        assertThat(effectiveAt).isBetween(asked, answered).isAfter(trialStart);
        assertThat(changed.json()
                        .get("subscription")
                        .get("current_period_start")
                        .asString())
                .isEqualTo(trialStart.toString());
        // what the preview said: no invoice but the trial's $0 one
        assertThat(count("select count(*) from sandbox.sandbox_invoices where customer = ?", customer))
                .isOne();
        assertThat(billing.effectivePlan(org.account().organizationId()).tier()).isEqualTo(Tier.TEAM);
    }

    @Test
    void shouldScheduleADowngradeDuringTheTrialForTheTrialsEndAndBillTheNewPlanThen() throws Exception {
        Api owner = api();
        Api.Account account = owner.signup();
        JsonNode before = subscribed(owner, account, "team").subscription();
        assertThat(before.get("status").asString()).isEqualTo("trialing");
        String trialEnd = before.get("trial_end").asString();
        String providerId = before.get("provider_subscription_id").asString();
        String customer = before.get("provider_customer_id").asString();

        Api.Response scheduled = owner.post("/api/v1/billing/change-plan", java.util.Map.of("tier", "pro"));

        // team until the trial ends, pro from then; the trial goes on, nothing charged
        assertThat(scheduled.status()).as(scheduled.toString()).isEqualTo(200);
        assertThat(scheduled.json().get("effective_at").asString()).isEqualTo(trialEnd);
        JsonNode subscription = scheduled.json().get("subscription");
        assertThat(subscription.get("plan").get("tier").asString()).isEqualTo("team");
        assertThat(subscription.get("status").asString()).isEqualTo("trialing");
        assertThat(subscription.get("trial_end").asString()).isEqualTo(trialEnd);
        assertThat(subscription.get("scheduled_change").get("tier").asString()).isEqualTo("pro");
        assertThat(subscription.get("scheduled_change").get("effective_at").asString())
                .isEqualTo(trialEnd);
        com.stripe.model.Subscription atProvider =
                stripeClient().subscriptions().retrieve(providerId);
        assertThat(atProvider.getStatus()).isEqualTo("trialing");
        assertThat(atProvider.getTrialEnd()).isEqualTo(Instant.parse(trialEnd).getEpochSecond());
        com.stripe.model.SubscriptionSchedule schedule =
                stripeClient().subscriptionSchedules().retrieve(atProvider.getSchedule());
        assertThat(schedule.getPhases()).hasSize(2);
        assertThat(schedule.getPhases().get(0).getTrialEnd())
                .isEqualTo(Instant.parse(trialEnd).getEpochSecond());
        assertThat(schedule.getPhases().get(1).getStartDate())
                .isEqualTo(Instant.parse(trialEnd).getEpochSecond());
        assertThat(count("select count(*) from sandbox.sandbox_invoices where customer = ?", customer))
                .as("only the trial's $0 invoice")
                .isOne();
        assertThat(billing.effectivePlan(account.organizationId()).tier()).isEqualTo(Tier.TEAM);

        // the trial ends: the first paid period is pro's, charged at pro's price
        SandboxEvents events = SandboxEvents.fromNow(jdbc);
        Api.Response advanced = sandbox().post("/sandbox/subscriptions/" + providerId + "/advance");
        assertThat(advanced.status()).as(advanced.toString()).isEqualTo(200);
        events.awaitDelivered(WEBHOOK_WAIT);
        Awaitility.await("the first period is pro's and paid")
                .atMost(WEBHOOK_WAIT)
                .until(() ->
                        owner.subscription().get("plan").get("tier").asString().equals("pro")
                                && paidRenewals(customer) == 1);
        assertThat(renewalPaid(customer)).isEqualTo(2000L);
        JsonNode after = owner.subscription();
        assertThat(after.get("status").asString()).isEqualTo("active");
        assertThat(after.get("current_period_start").asString()).isEqualTo(trialEnd);
        assertThat(after.get("scheduled_change").isNull()).isTrue();
        assertThat(billing.effectivePlan(account.organizationId()).tier()).isEqualTo(Tier.PRO);
    }

    @Test
    void theSandboxRefusesASchedulesPhasesThatDropATrialsEndAndChangesNothing() throws Exception {
        JsonNode subscription = subscribed().subscription();
        String id = subscription.get("provider_subscription_id").asString();
        long trialEnd = Instant.parse(subscription.get("trial_end").asString()).getEpochSecond();
        com.stripe.model.SubscriptionSchedule schedule = stripeClient()
                .subscriptionSchedules()
                .create(com.stripe.param.SubscriptionScheduleCreateParams.builder()
                        .setFromSubscription(id)
                        .build());
        assertThat(schedule.getPhases().get(0).getTrialEnd()).isEqualTo(trialEnd);
        String phases = "phases[0][items][0][price]=" + SandboxStandIn.PRICE_PRO + "&phases[0][end_date]=" + trialEnd
                + "&phases[1][items][0][price]=" + SandboxStandIn.PRICE_TEAM + "&end_behavior=release";

        // at Stripe a trialing phase restated without trial_end ends the trial at once: the sandbox refuses it
        Api.Response refused = sandbox()
                .send(
                        "POST",
                        "/sandbox/stripe/v1/subscription_schedules/" + schedule.getId(),
                        phases,
                        "application/x-www-form-urlencoded");
        assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
        assertThat(refused.json().get("error").get("param").asString()).isEqualTo("phases[0][trial_end]");
        assertThat(stripeClient()
                        .subscriptionSchedules()
                        .retrieve(schedule.getId())
                        .getPhases())
                .hasSize(1);

        Api.Response kept = sandbox()
                .send(
                        "POST",
                        "/sandbox/stripe/v1/subscription_schedules/" + schedule.getId(),
                        phases + "&phases[0][trial_end]=" + trialEnd,
                        "application/x-www-form-urlencoded");
        assertThat(kept.status()).as(kept.toString()).isEqualTo(200);
        assertThat(stripeClient().subscriptions().retrieve(id).getStatus()).isEqualTo("trialing");
    }

    @Test
    void shouldAnswerAllowanceReachedNotOverageCapDuringTheTrialWithAnOverageCapOf0() {
        Subscribed org = subscribed();
        Api owner = org.owner();
        Instant trialStart =
                Instant.parse(org.subscription().get("current_period_start").asString());
        StorageSamples.report(baseUrl(), org.account().projectId(), 150 * GIB, trialStart);
        String key = owner.createKey("backend");
        Awaitility.await("verify holds writes at the trial's allowance")
                .atMost(Duration.ofSeconds(10))
                .until(() -> "allowance_reached"
                        .equals(verify(key).get("storage").get("reason").asString(null)));

        // a cap of 0 is taken during the trial (it caps the overage billed after it)
        Api.Response capped = owner.put("/api/v1/usage/limits", java.util.Map.of("overage_cap_cents", 0));
        assertThat(capped.status()).as(capped.toString()).isEqualTo(200);

        // a changed limit reaches verify within 2 s: the allowance stays what refuses, not the overage cap
        Awaitility.await("the reason stays allowance_reached")
                .during(Duration.ofSeconds(3))
                .atMost(Duration.ofSeconds(5))
                .until(() -> "allowance_reached"
                        .equals(verify(key).get("storage").get("reason").asString(null)));
        JsonNode storage = verify(key).get("storage");
        assertThat(storage.get("write_allowed").asBoolean()).isFalse();
        assertThat(storage.get("used_bytes").asLong()).isEqualTo(150 * GIB);
        assertThat(owner.get("/api/v1/usage/limits")
                        .json()
                        .get("overage_cap_cents")
                        .asLong())
                .isZero();
    }

    /** The customer's paid renewal invoices at the provider (the first, at a trial's end). */
    private long paidRenewals(String customer) {
        return count(
                "select count(*) from sandbox.sandbox_invoices where customer = ? and status = 'paid'"
                        + " and billing_reason = 'subscription_cycle'",
                customer);
    }

    /** What the customer's one renewal invoice charged. */
    private long renewalPaid(String customer) {
        return single(
                Long.class,
                "select amount_paid from sandbox.sandbox_invoices where customer = ? and billing_reason ="
                        + " 'subscription_cycle'",
                customer);
    }

    private JsonNode verify(String key) {
        return Api.withKey(baseUrl(), key).post("/api/v1/api-keys/verify").json();
    }

    @org.springframework.beans.factory.annotation.Autowired
    Billing billing;
}
