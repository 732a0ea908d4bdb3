package com.kvportal.billing.subscription;

import com.kvportal.billing.ids.ProviderCustomerId;
import java.util.UUID;

/**
 * An organization's customer at the payment provider.
 *
 * @param customerId our customer who opened it; the organization's subscriptions name them
 */
public record BillingAccount(UUID organizationId, ProviderCustomerId providerCustomerId, UUID customerId) {}
