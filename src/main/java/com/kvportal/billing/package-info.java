/**
 * Billing: the plans, the organization's subscription bought through the payment provider's hosted checkout,
 * its invoices (with the usage charges it asks usage for through {@link com.kvportal.billing.UsageCharges}), and the
 * provider's signed events that keep them current. This package is what other modules use:
 * {@link com.kvportal.billing.Billing}, {@link com.kvportal.billing.OrganizationPlans} and the
 * {@link com.kvportal.billing.Entitlement} they answer, the plans, statuses, problems and domain events, and the
 * {@link com.kvportal.billing.UsageCharges} port that usage implements; the provider's ids they carry are typed, in
 * the public sub-package {@code ids} (its named interface). The code lives by lifecycle in internal
 * sub-packages, each importing only those below it: {@code web}, {@code providerevents}, {@code checkout},
 * {@code invoice}, {@code subscription} and {@code stripe} (the provider adapter).
 */
@ApplicationModule(allowedDependencies = {"account", "common", "security"})
@NullMarked
package com.kvportal.billing;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
