package com.kvportal.billing;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.sandbox.SandboxStandIn;
import com.kvportal.support.Api;
import com.kvportal.support.Concurrently;
import com.kvportal.support.IntegrationTest;
import com.kvportal.support.SharedServices;
import com.stripe.model.Subscription;
import com.stripe.model.SubscriptionSchedule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * Changes of one organization's subscription run one at a time across instances: this test's own instance and a
 * separate JVM on one PostgreSQL get conflicting changes of the same organization at the same moment (an upgrade and
 * a downgrade, a downgrade and a cancellation, a downgrade and calling it off), for several organizations at once.
 * Every answer is the change made or a documented refusal, never 502, and the service's subscription and the
 * provider's agree afterwards.
 */
class PlanChangesClusterIT extends IntegrationTest {

    private static final Duration WEBHOOK_WAIT = Duration.ofSeconds(20);
    private static final int ORGANIZATIONS_PER_CONFLICT = 3;

    /** The second instance. */
    @RegisterExtension
    static final SharedServices others = new SharedServices("plans-second");

    /** Two changes of one organization that conflict, and the refusals each may answer, depending on which is first. */
    private record Conflict(
            String name, String tier, Function<Api, Api.Response> first, Function<Api, Api.Response> second) {}

    /** An organization on a tier and its owner's clients of both instances. */
    private record Subscribed(Conflict conflict, Api onThis, Api onOther, String providerId) {}

    private static Api.Response changeTo(Api owner, String tier) {
        return owner.post("/api/v1/billing/change-plan", Map.of("tier", tier));
    }

    private static final List<Conflict> CONFLICTS = List.of(
            new Conflict("upgrade and downgrade", "pro", o -> changeTo(o, "team"), o -> changeTo(o, "pro")),
            new Conflict(
                    "downgrade and cancellation",
                    "team",
                    o -> changeTo(o, "pro"),
                    o -> o.post("/api/v1/billing/cancel")),
            new Conflict(
                    "downgrade and calling it off",
                    "team",
                    o -> changeTo(o, "pro"),
                    o -> o.delete("/api/v1/billing/change-plan")));

    private Subscribed subscribed(Conflict conflict) {
        Api owner = api();
        owner.signup();
        SandboxCheckout.pay(jdbc, owner, api(), conflict.tier(), WEBHOOK_WAIT);
        String providerId = owner.subscription().get("provider_subscription_id").asString();
        return new Subscribed(conflict, owner, owner.sameSessionAt(others.get(0).baseUrl()), providerId);
    }

    @Test
    void shouldAnswerConflictingChangesOfOneOrganizationOnTwoInstancesOneAfterTheOtherAndAgreeWithTheProvider()
            throws Exception {
        List<Subscribed> organizations = new ArrayList<>();
        for (Conflict conflict : CONFLICTS) {
            for (int i = 0; i < ORGANIZATIONS_PER_CONFLICT; i++) {
                organizations.add(subscribed(conflict));
            }
        }

        // every organization's two changes at the same moment, one on each instance (which one on which, alternating)
        List<Callable<Api.Response>> requests = new ArrayList<>();
        for (int i = 0; i < organizations.size(); i++) {
            Subscribed org = organizations.get(i);
            Api firstOn = i % 2 == 0 ? org.onThis() : org.onOther();
            Api secondOn = i % 2 == 0 ? org.onOther() : org.onThis();
            requests.add(() -> org.conflict().first().apply(firstOn));
            requests.add(() -> org.conflict().second().apply(secondOn));
        }
        List<Api.Response> answers = Concurrently.each(requests);

        for (int i = 0; i < organizations.size(); i++) {
            Conflict conflict = organizations.get(i).conflict();
            for (Api.Response answer : answers.subList(2 * i, 2 * i + 2)) {
                assertThat(answer.status())
                        .as("%s: %s", conflict.name(), answer)
                        .isNotEqualTo(502);
                if (answer.status() != 200) {
                    // the later of an upgrade and a downgrade to the tier it has; calling off what is not scheduled
                    assertThat(answer.code())
                            .as("%s: %s", conflict.name(), answer)
                            .isIn("already_subscribed", "no_scheduled_change");
                }
            }
        }
        for (Subscribed org : organizations) {
            awaitAgreement(org);
        }
    }

    /** The service's subscription as the provider has it: plan, scheduled change, cancellation at the period's end. */
    private void awaitAgreement(Subscribed org) {
        Awaitility.await(org.conflict().name() + ": the service and the provider agree")
                .atMost(WEBHOOK_WAIT)
                .untilAsserted(() -> {
                    JsonNode here = org.onThis().subscription();
                    Subscription there = stripeClient().subscriptions().retrieve(org.providerId());
                    String tier = here.get("plan").get("tier").asString();
                    assertThat(there.getItems().getData().get(0).getPrice().getId())
                            .as("the plan")
                            .isEqualTo(price(tier));
                    JsonNode scheduled = here.get("scheduled_change");
                    assertThat(there.getSchedule() != null)
                            .as("a scheduled change: %s", scheduled)
                            .isEqualTo(!scheduled.isNull());
                    if (!scheduled.isNull()) {
                        SubscriptionSchedule schedule =
                                stripeClient().subscriptionSchedules().retrieve(there.getSchedule());
                        assertThat(schedule.getStatus()).isEqualTo("active");
                        List<SubscriptionSchedule.Phase> phases = schedule.getPhases();
                        assertThat(phases.get(phases.size() - 1)
                                        .getItems()
                                        .get(0)
                                        .getPrice())
                                .isEqualTo(price(scheduled.get("tier").asString()));
                    }
                    assertThat(Boolean.TRUE.equals(there.getCancelAtPeriodEnd()))
                            .as("canceled at the period's end: %s", here.get("cancel_at"))
                            .isEqualTo(!here.get("cancel_at").isNull());
                });
    }

    private static String price(String tier) {
        return tier.equals("team") ? SandboxStandIn.PRICE_TEAM : SandboxStandIn.PRICE_PRO;
    }
}
