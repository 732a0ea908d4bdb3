package com.kvportal.billing;

import java.time.Instant;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * An organization's subscription, as the provider last reported it.
 *
 * @param status one of Stripe's subscription statuses
 * @param cancelAt when the subscription ends; null while no cancellation is scheduled
 * @param plan the plan of {@code planId}, for convenience
 */
public record Subscription(
        UUID id,
        UUID customerId,
        UUID organizationId,
        UUID planId,
        String status,
        String providerCustomerId,
        String providerSubscriptionId,
        @Nullable Instant currentPeriodStart,
        @Nullable Instant currentPeriodEnd,
        @Nullable Instant cancelAt,
        Instant createdAt,
        Instant updatedAt,
        Plan plan) {

    /** Statuses of a subscription that is over: the organization is on free again. */
    static final Set<String> ENDED = Set.of("canceled", "incomplete_expired");

    /** Statuses in which the subscription's plan is the organization's plan. */
    static final Set<String> GRANTING = Set.of("active", "trialing", "past_due");

    boolean grantsPlan() {
        return GRANTING.contains(status);
    }
}
