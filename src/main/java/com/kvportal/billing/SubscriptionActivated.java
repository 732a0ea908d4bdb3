package com.kvportal.billing;

import java.util.UUID;

/** A subscription started to grant its plan: recorded active or trialing, or turned so from a status that did not. */
public record SubscriptionActivated(UUID organizationId, UUID subscriptionId, Tier tier) {}
