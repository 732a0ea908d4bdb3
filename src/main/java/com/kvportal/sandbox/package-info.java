/**
 * The built-in Stripe stand-in, on when {@code STRIPE_SECRET_KEY} is unset (and only on a loopback base URL unless
 * {@code SANDBOX=on}): a subset of Stripe's REST API at {@code /sandbox/stripe/v1} and a test clock, both behind its
 * own key ({@link com.kvportal.sandbox.SandboxKey}), hosted checkout and portal pages, and signed webhook events.
 * All of it is registered by one switch, {@link com.kvportal.sandbox.SandboxWing}; its subpackages, by resource
 * ({@code api}, {@code stripe}, {@code store}, {@code customer}, {@code checkout}, {@code portal}, {@code
 * subscription}, {@code invoice}, {@code events}, {@code web}), are the module's internals.
 */
@ApplicationModule(allowedDependencies = {"common"})
@NullMarked
package com.kvportal.sandbox;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
