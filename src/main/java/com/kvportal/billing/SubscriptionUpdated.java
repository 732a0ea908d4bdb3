package com.kvportal.billing;

import java.util.UUID;

/**
 * The provider's newer state of a subscription changed its status, plan, period or cancellation and it has not
 * ended (that is {@link SubscriptionEnded}).
 */
public record SubscriptionUpdated(UUID organizationId, UUID subscriptionId, Tier tier, SubscriptionStatus status) {}
