package com.kvportal.billing;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A subscription ended (canceled or expired): the organization is on free again.
 *
 * @param tier the plan it had
 * @param periodStart the start of its last period, when known
 * @param periodEnd the end of its last period, when known
 */
public record SubscriptionEnded(
        UUID organizationId,
        UUID subscriptionId,
        String providerCustomerId,
        Tier tier,
        @Nullable Instant periodStart,
        @Nullable Instant periodEnd) {}
