package com.kvportal.usage;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.billing.Entitlement;
import com.kvportal.billing.Plan;
import com.kvportal.billing.SubscriptionStatus;
import com.kvportal.billing.Tier;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Why verify refuses writes: the first refusal that applies, the customer's own limits first. */
class WriteRefusalTest {

    static final Plan FREE = new Plan(UUID.randomUUID(), "Free", Tier.FREE, 1000, 0, 0, 0);
    static final Plan PRO = new Plan(UUID.randomUUID(), "Pro", Tier.PRO, 1000, 2000, 100, 200);

    @ParameterizedTest(name = "{0} storing {1} with storage cap {2}, overage cap {3}, projected {4} cents: {5}")
    @CsvSource(
            nullValues = "-",
            value = {
                // free: the allowance, unless the storage cap comes first
                "free, 999, -, -, 0, -",
                "free, 1000, -, -, 0, allowance_reached",
                "free, 1000, 2000, -, 0, allowance_reached",
                "free, 500, 500, -, 0, storage_cap",
                "free, 1000, 1000, -, 0, storage_cap",
                "free, 499, 500, -, 0, -",
                "free, 0, 0, -, 0, storage_cap",
                // an overage cap means nothing on a plan without overage (kept from a downgrade)
                "free, 999, -, 0, 0, -",
                // pro: storage above the allowance is billed, not refused, unless capped
                "pro, 5000, -, -, 800, -",
                "pro, 999, -, 0, 0, -",
                "pro, 1000, -, 0, 0, overage_cap",
                "pro, 5000, -, 800, 799, -",
                "pro, 5000, -, 800, 800, overage_cap",
                "pro, 5000, -, 800, 2000, overage_cap",
                // a cap above 0 refuses once the projected overage reaches it, below the allowance too (storage
                // earlier in the period already cost that much): docs/design.md
                "pro, 999, -, 800, 2000, overage_cap",
                "pro, 999, -, 800, 800, overage_cap",
                "pro, 0, -, 800, 799, -",
                // a cap of 0 is met at the allowance (a projection of 0 does not refuse below it)
                "pro, 999, -, 0, 0, -",
                "pro, 5000, 5000, 800, 2000, storage_cap",
                "pro, 4999, 5000, 800, 2000, overage_cap",
                "pro, 4999, 5000, -, 2000, -",
                // a past-due pro subscription keeps its plan: it writes on above the allowance
                "past_due, 5000, -, -, 800, -",
                "past_due, 5000, -, 800, 800, overage_cap",
                // a trial bills no overage: the allowance is the limit, and an overage cap (kept for after the
                // trial) is not what refuses
                "trialing, 999, -, 0, 0, -",
                "trialing, 1000, -, 0, 0, allowance_reached",
                "trialing, 5000, -, 0, 0, allowance_reached",
                "trialing, 999, -, 800, 2000, -",
                "trialing, 1000, -, 800, 2000, allowance_reached",
                "trialing, 1000, 1000, 0, 0, storage_cap",
                "trialing, 1000, -, -, 0, allowance_reached",
            })
    void shouldNameTheFirstRefusalThatApplies(
            String tier,
            long used,
            @Nullable Long storageCap,
            @Nullable Long overageCap,
            long projectedCents,
            @Nullable String expected) {
        Entitlement entitlement =
                switch (tier) {
                    case "free" -> Entitlement.free(FREE);
                    case "past_due" -> new Entitlement(PRO, SubscriptionStatus.PAST_DUE);
                    case "trialing" -> new Entitlement(PRO, SubscriptionStatus.TRIALING);
                    default -> new Entitlement(PRO, SubscriptionStatus.ACTIVE);
                };
        UsageLimits limits = new UsageLimits(List.of(75, 90, 100), storageCap, overageCap);

        WriteRefusal refusal = WriteRefusal.of(entitlement, used, limits, projectedCents);

        assertThat(refusal == null ? null : refusal.wire()).isEqualTo(expected);
    }
}
