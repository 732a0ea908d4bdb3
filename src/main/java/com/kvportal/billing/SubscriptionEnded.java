package com.kvportal.billing;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A subscription ended (canceled or expired): the organization is on free again.
 *
 * @param tier the plan it had
 * @param periodStart the start of its last period ({@code current_period_start}), when known
 * @param periodEnd the end of its last period as scheduled ({@code current_period_end}), when known
 * @param endedAt when it ended, by the provider's clock: the provider's {@code ended_at} (the period's end for a
 *     cancellation at period end, earlier for an immediate one), or, when the provider's object does not say, the
 *     {@code created} of the provider's news that it ended
 */
public record SubscriptionEnded(
        UUID organizationId,
        UUID subscriptionId,
        String providerCustomerId,
        Tier tier,
        @Nullable Instant periodStart,
        @Nullable Instant periodEnd,
        Instant endedAt) {

    /**
     * The end of the last period as it was served: the moment it ended, never after the period's scheduled end nor
     * before its start. Null when the period's start is unknown.
     */
    public @Nullable Instant lastPeriodEnd() {
        if (periodStart == null) {
            return null;
        }
        Instant end = periodEnd != null && periodEnd.isBefore(endedAt) ? periodEnd : endedAt;
        return end.isBefore(periodStart) ? periodStart : end;
    }
}
