package com.kvportal.billing;

import java.util.UUID;

/** A customer of the organization started a hosted checkout for the tier. */
public record CheckoutStarted(UUID organizationId, UUID customerId, Tier tier, String sessionId) {}
