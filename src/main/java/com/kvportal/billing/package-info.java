/**
 * Billing: the plans, the organization's subscription bought through the payment provider's hosted checkout,
 * its invoices, and the provider's signed webhook that keeps them current. {@link com.kvportal.billing.Billing}
 * is the feature's public surface.
 */
@ApplicationModule(allowedDependencies = {"account", "common", "security"})
@NullMarked
package com.kvportal.billing;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
