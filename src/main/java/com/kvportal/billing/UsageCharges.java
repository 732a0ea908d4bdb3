package com.kvportal.billing;

import java.time.Instant;
import java.util.UUID;

/**
 * The one question billing asks usage, when it bills a period (a renewal draft, or the last period of a subscription
 * that ended): what does the organization's usage of {@code [start, end)} cost beyond its plan. Usage implements it;
 * billing adds the answer as a line of the invoice it owns, under its own idempotency key, and calls the provider
 * after its transaction commits. Asking changes nothing.
 */
public interface UsageCharges {

    /**
     * The charge of the organization's storage beyond its plan in the period, as measured now and clamped to the
     * customer's overage cap in force now; its quantity is 0 when there is none.
     */
    UsageCharge chargeOf(UUID organizationId, Plan plan, Instant start, Instant end);
}
