/**
 * The payment provider adapter: stripe-java calls (to Stripe or the sandbox, only the API base differs),
 * webhook signature verification and the parsing of provider objects into the records billing works with.
 */
@NullMarked
package com.kvportal.billing.stripe;

import org.jspecify.annotations.NullMarked;
