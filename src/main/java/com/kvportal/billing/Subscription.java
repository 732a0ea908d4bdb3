package com.kvportal.billing;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * An organization's subscription, as the provider last reported it.
 *
 * @param cancelAt when the subscription ends; null while no cancellation is scheduled
 * @param plan the plan of {@code planId}, for convenience
 */
public record Subscription(
        UUID id,
        UUID customerId,
        UUID organizationId,
        UUID planId,
        SubscriptionStatus status,
        String providerCustomerId,
        String providerSubscriptionId,
        @Nullable Instant currentPeriodStart,
        @Nullable Instant currentPeriodEnd,
        @Nullable Instant cancelAt,
        Instant createdAt,
        Instant updatedAt,
        Plan plan) {}
