package com.kvportal.billing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Billing's rule for writes: without a database, without Spring. */
class EntitlementTest {

    private static final Plan FREE = new Plan(UUID.randomUUID(), "Free", Tier.FREE, 1000, 0, 0, 0);
    private static final Plan PRO = new Plan(UUID.randomUUID(), "Pro", Tier.PRO, 1000, 2000, 100, 200);

    @Test
    void theFreePlanRefusesWritesOnceStorageReachesItsAllowance() {
        Entitlement free = Entitlement.free(FREE);
        assertThat(free.tier()).isEqualTo(Tier.FREE);
        assertThat(free.subscriptionStatus()).isNull();
        assertThat(free.billsOverage()).isFalse();
        assertThat(free.mayWrite(0)).isTrue();
        assertThat(free.mayWrite(999)).isTrue();
        assertThat(free.mayWrite(1000)).isFalse();
        assertThat(free.mayWrite(5000)).isFalse();
    }

    @ParameterizedTest
    @EnumSource(
            value = SubscriptionStatus.class,
            names = {"ACTIVE", "PAST_DUE"})
    void aPlanWithOverageWritesOnAboveItsAllowanceWhateverPaidStatusGrantsIt(SubscriptionStatus status) {
        Entitlement pro = new Entitlement(PRO, status);
        assertThat(pro.tier()).isEqualTo(Tier.PRO);
        assertThat(pro.allowanceBytes()).isEqualTo(1000);
        assertThat(pro.billsOverage()).isTrue();
        assertThat(pro.mayWrite(999)).isTrue();
        assertThat(pro.mayWrite(1000)).isTrue();
        assertThat(pro.mayWrite(Long.MAX_VALUE)).isTrue();
    }

    @Test
    void aTrialHoldsWritesAtTheAllowanceOfAPlanWithOverage() {
        Entitlement trial = new Entitlement(PRO, SubscriptionStatus.TRIALING);
        assertThat(trial.tier()).isEqualTo(Tier.PRO);
        assertThat(trial.inTrial()).isTrue();
        assertThat(trial.mayWrite(999)).isTrue();
        assertThat(trial.mayWrite(1000)).isFalse();
        assertThat(new Entitlement(PRO, SubscriptionStatus.ACTIVE).inTrial()).isFalse();
    }

    @Test
    void onlyTheFreePlanIsTheFreeEntitlement() {
        assertThatThrownBy(() -> Entitlement.free(PRO)).isInstanceOf(IllegalArgumentException.class);
    }
}
