package com.kvportal.billing;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * The provider's newer state of a subscription names another plan: a plan change took effect.
 *
 * @param from the plan it had
 * @param to the plan it has now
 * @param endedPeriodStart the start of the period the change cut short (a change with a new period starting at once);
 *     null when no period ended early (the change came with a renewal, or kept the period)
 * @param endedPeriodEnd the end of that period: the start of the new one, by the provider's clock; null likewise
 */
public record SubscriptionPlanChanged(
        UUID organizationId,
        UUID subscriptionId,
        String providerCustomerId,
        Tier from,
        Tier to,
        @Nullable Instant endedPeriodStart,
        @Nullable Instant endedPeriodEnd) {}
