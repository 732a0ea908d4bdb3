/**
 * The built-in Stripe stand-in, on when {@code STRIPE_SECRET_KEY} is unset: a subset of Stripe's REST API at
 * {@code /sandbox/stripe/v1}, hosted checkout and portal pages, a scriptable surface, and signed webhook events.
 */
@ApplicationModule(allowedDependencies = {"common"})
@NullMarked
package com.kvportal.sandbox;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
