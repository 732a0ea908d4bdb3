package com.kvportal.billing;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.billing.BillingEvent.SubscriptionEnded;
import com.kvportal.billing.ids.ProviderCustomerId;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Where the last period of an ended subscription ends: when it ended at the provider, within the period. */
class SubscriptionEndedTest {

    private static final ProviderCustomerId CUSTOMER = new ProviderCustomerId("cus_x");

    static final Instant START = Instant.parse("2026-11-01T00:00:00Z");
    static final Instant END = Instant.parse("2026-12-01T00:00:00Z");

    static SubscriptionEnded ended(Instant start, Instant end, Instant endedAt) {
        return new SubscriptionEnded(UUID.randomUUID(), UUID.randomUUID(), CUSTOMER, Tier.PRO, start, end, endedAt);
    }

    @Test
    void shouldEndTheLastPeriodWhenTheSubscriptionEnded() {
        Instant midway = Instant.parse("2026-11-17T08:30:00Z");
        assertThat(ended(START, END, midway).lastPeriodEnd()).isEqualTo(midway);
        assertThat(ended(START, END, END).lastPeriodEnd()).isEqualTo(END);
    }

    /** Decision: an ended_at beyond the period (no provider sends one) bills the period, not more. */
    @Test
    void shouldNeverRunPastThePeriodNorBeforeItsStart() {
        assertThat(ended(START, END, END.plusSeconds(3600)).lastPeriodEnd()).isEqualTo(END);
        assertThat(ended(START, END, START.minusSeconds(1)).lastPeriodEnd()).isEqualTo(START);
    }

    @Test
    void shouldKnowNoLastPeriodWithoutItsStart() {
        assertThat(new SubscriptionEnded(UUID.randomUUID(), UUID.randomUUID(), CUSTOMER, Tier.PRO, null, null, END)
                        .lastPeriodEnd())
                .isNull();
        assertThat(new SubscriptionEnded(UUID.randomUUID(), UUID.randomUUID(), CUSTOMER, Tier.PRO, START, null, END)
                        .lastPeriodEnd())
                .isEqualTo(END);
    }
}
