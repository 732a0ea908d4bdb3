/**
 * Billing: the plans, the organization's subscription bought through the payment provider's hosted checkout,
 * its invoices, and the provider's signed webhook that keeps them current. This package is what other modules use:
 * {@link com.kvportal.billing.Billing}, {@link com.kvportal.billing.OrganizationPlans} and the
 * {@link com.kvportal.billing.Entitlement} they answer, the plans, statuses and domain events. The code lives by
 * lifecycle in internal sub-packages: {@code subscription}, {@code invoice}, {@code checkout}, {@code webhook},
 * {@code web} and {@code stripe} (the provider adapter).
 */
@ApplicationModule(allowedDependencies = {"account", "common", "security"})
@NullMarked
package com.kvportal.billing;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
