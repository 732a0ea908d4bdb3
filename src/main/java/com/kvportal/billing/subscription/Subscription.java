package com.kvportal.billing.subscription;

import com.kvportal.billing.Plan;
import com.kvportal.billing.SubscriptionStatus;
import com.kvportal.billing.ids.ProviderCustomerId;
import com.kvportal.billing.ids.ProviderSubscriptionId;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * An organization's subscription, as the provider last reported it.
 *
 * @param cancelAt when the subscription ends; null while no cancellation is scheduled
 * @param scheduledChange the plan change that waits for the end of the current period; null when none
 * @param plan the plan of {@code planId}, for convenience
 */
public record Subscription(
        UUID id,
        UUID customerId,
        UUID organizationId,
        UUID planId,
        @Schema(description = "Stripe's subscription status.") SubscriptionStatus status,
        @Schema(type = "string", description = "The customer at the payment provider.", example = "cus_NffrFeUfNV2Hib")
                ProviderCustomerId providerCustomerId,
        @Schema(
                        type = "string",
                        description = "The subscription at the payment provider.",
                        example = "sub_1MowQVLkdIwHu7ixeRlqHVzs")
                ProviderSubscriptionId providerSubscriptionId,
        @Schema(nullable = true) @Nullable Instant currentPeriodStart,
        @Schema(nullable = true) @Nullable Instant currentPeriodEnd,
        @Schema(nullable = true, description = "When the subscription ends; null while no cancellation is scheduled.")
                @Nullable
                Instant cancelAt,
        @Schema(
                        nullable = true,
                        description = "When the trial ends (or ended); null when the subscription had no trial.")
                @Nullable
                Instant trialEnd,
        @Schema(
                        nullable = true,
                        description = "A downgrade that takes effect at the end of the current period; null when none.")
                @Nullable
                ScheduledChange scheduledChange,
        Instant createdAt,
        Instant updatedAt,
        Plan plan) {}
