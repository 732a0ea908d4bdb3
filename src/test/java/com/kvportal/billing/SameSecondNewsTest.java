package com.kvportal.billing;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.sandbox.SandboxStandIn;
import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Events arrive in no particular order and the provider stamps them to the second: news of a subscription of the same
 * second as the state recorded, which says otherwise, is settled by the provider's state now (read through the real
 * stripe-java client from the sandbox), not by the order in which the two arrived. Newer news is applied as it is.
 */
class SameSecondNewsTest extends IntegrationTest {

    private static final Duration WEBHOOK_WAIT = Duration.ofSeconds(20);

    /** An organization on pro through the hosted checkout, and its subscription as the service records it. */
    private record Subscribed(Api owner, JsonNode subscription, Instant stateAt) {

        /** The provider's subscription as an event would state it: active, set to end with its period or not. */
        String stated(boolean cancelAtPeriodEnd) {
            Instant periodEnd =
                    Instant.parse(subscription.get("current_period_end").asString());
            return StripePayloads.subscription(
                    subscription.get("provider_subscription_id").asString(),
                    subscription.get("provider_customer_id").asString(),
                    "active",
                    SandboxStandIn.PRICE_PRO,
                    Instant.parse(subscription.get("current_period_start").asString()),
                    periodEnd,
                    cancelAtPeriodEnd ? periodEnd : null,
                    cancelAtPeriodEnd);
        }
    }

    private Subscribed subscribed() {
        Api owner = api();
        owner.signup();
        SandboxCheckout.pay(jdbc, owner, api(), "pro", WEBHOOK_WAIT);
        JsonNode subscription = owner.subscription();
        Instant stateAt = jdbc.sql("select provider_state_at from subscriptions where provider_subscription_id = ?")
                .param(subscription.get("provider_subscription_id").asString())
                .query(java.sql.Timestamp.class)
                .single()
                .toInstant();
        return new Subscribed(owner, subscription, stateAt);
    }

    @Test
    void shouldAskTheProviderWhenNewsOfTheSameSecondSaysOtherwise() {
        Subscribed org = subscribed();
        assertThat(org.subscription().get("cancel_at").isNull()).isTrue();

        // a cancellation the provider does not have, stamped the second of the recorded state: the provider says no
        Api.Response answer = new Webhooks(baseUrl())
                .deliver(StripePayloads.event("customer.subscription.updated", org.stateAt(), org.stated(true)));

        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        JsonNode after = org.owner().subscription();
        assertThat(after.get("cancel_at").isNull()).as(after.toString()).isTrue();
        // all else as before too (the provider's state is written again, so only when it was differs)
        assertThat(withoutUpdatedAt(after)).isEqualTo(withoutUpdatedAt(org.subscription()));
    }

    private static JsonNode withoutUpdatedAt(JsonNode subscription) {
        ObjectNode copy = (ObjectNode) subscription.deepCopy();
        copy.remove("updated_at");
        return copy;
    }

    @Test
    void shouldApplyNewerNewsAsItIs() {
        Subscribed org = subscribed();

        Api.Response answer = new Webhooks(baseUrl())
                .deliver(StripePayloads.event(
                        "customer.subscription.updated", org.stateAt().plusSeconds(1), org.stated(true)));

        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        assertThat(org.owner().subscription().get("cancel_at").asString())
                .isEqualTo(org.subscription().get("current_period_end").asString());
    }
}
