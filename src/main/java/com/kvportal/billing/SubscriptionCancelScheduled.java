package com.kvportal.billing;

import java.time.Instant;
import java.util.UUID;

/** A subscription was set to end at {@code cancelAt} (it had no end scheduled before). */
public record SubscriptionCancelScheduled(UUID organizationId, UUID subscriptionId, Instant cancelAt) {}
