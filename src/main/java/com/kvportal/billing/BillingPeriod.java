package com.kvportal.billing;

import java.time.Instant;

/**
 * A billing period {@code [start, end)}.
 *
 * @param subscription true when it is the period of the organization's live subscription; false when it is the
 *     UTC calendar month of an organization without one
 */
public record BillingPeriod(Instant start, Instant end, boolean subscription) {}
