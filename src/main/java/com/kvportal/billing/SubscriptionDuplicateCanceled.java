package com.kvportal.billing;

import java.util.UUID;

/**
 * A second subscription of the organization was completed all the same (an old session paid late, two sessions
 * paid at once, a provider retry); it was canceled at the provider at once and its payments refunded.
 *
 * @param keptSubscriptionId the subscription the organization keeps
 */
public record SubscriptionDuplicateCanceled(
        UUID organizationId, UUID subscriptionId, UUID keptSubscriptionId, String providerSubscriptionId, Tier tier) {}
