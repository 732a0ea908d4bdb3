package com.kvportal.billing;

import com.kvportal.billing.stripe.ProviderCustomerId;
import java.util.UUID;

/**
 * An organization's customer at the payment provider.
 *
 * @param customerId our customer who opened it; the organization's subscriptions name them
 */
record BillingAccount(UUID organizationId, ProviderCustomerId providerCustomerId, UUID customerId) {}
