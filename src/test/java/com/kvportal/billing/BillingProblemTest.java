package com.kvportal.billing;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.billing.BillingProblem.AlreadySubscribed;
import com.kvportal.billing.BillingProblem.TierNotPurchasable;
import org.junit.jupiter.api.Test;

/** The refusals that word their detail by case: what each tells a person to do. Plain JUnit. */
class BillingProblemTest {

    @Test
    void aTierNotPurchasableSaysWhyFreeIsNotBoughtAndWhoNamesAPaidTiersPrice() {
        TierNotPurchasable free = new TierNotPurchasable(Tier.FREE);
        TierNotPurchasable unpriced = new TierNotPurchasable(Tier.TEAM);

        assertThat(free.code()).isEqualTo(unpriced.code()).isEqualTo("tier_not_purchasable");
        assertThat(free.status().value()).isEqualTo(unpriced.status().value()).isEqualTo(400);
        assertThat(free.getMessage())
                .isEqualTo("The free tier cannot be bought; it is what an organization has without one.");
        assertThat(unpriced.getMessage())
                .isEqualTo("The team tier is not for sale here yet: the operator has not named its price at the"
                        + " payment provider (STRIPE_PRICE_TEAM). Choose another tier, or ask the operator.");
    }

    @Test
    void alreadySubscribedNamesThePlanChangeWhenAnotherTierIsWanted() {
        AlreadySubscribed same = new AlreadySubscribed(Tier.PRO, Tier.PRO);
        AlreadySubscribed another = new AlreadySubscribed(Tier.PRO, Tier.TEAM);

        assertThat(same.code()).isEqualTo(another.code()).isEqualTo("already_subscribed");
        assertThat(same.status().value()).isEqualTo(another.status().value()).isEqualTo(409);
        assertThat(same.getMessage()).isEqualTo("The organization already has a pro subscription.");
        assertThat(another.getMessage())
                .isEqualTo("The organization already has a pro subscription; to move to team, change the plan"
                        + " (POST /api/v1/billing/change-plan) instead of a second checkout.");
    }
}
