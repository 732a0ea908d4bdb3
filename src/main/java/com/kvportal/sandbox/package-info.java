/**
 * The built-in Stripe stand-in, on when {@code STRIPE_SECRET_KEY} is unset (and only on a loopback base URL unless
 * {@code SANDBOX=on}): a subset of Stripe's REST API at {@code /sandbox/stripe/v1} and a test clock, both behind its
 * own key ({@link com.kvportal.sandbox.SandboxKey}), hosted checkout and portal pages, and signed webhook events.
 */
@ApplicationModule(allowedDependencies = {"common"})
@NullMarked
package com.kvportal.sandbox;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
