/**
 * The payment provider's signed events (its "webhook", at {@code POST /api/v1/billing/webhook}): the endpoint, the
 * handled {@link com.kvportal.billing.providerevents.ProviderEventType}s, each event applied exactly once. Internal to
 * the billing module.
 */
@NullMarked
package com.kvportal.billing.providerevents;

import org.jspecify.annotations.NullMarked;
