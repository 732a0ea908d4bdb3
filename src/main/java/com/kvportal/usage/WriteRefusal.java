package com.kvportal.usage;

import com.kvportal.billing.Plan;
import com.kvportal.billing.WireName;
import org.jspecify.annotations.Nullable;

/**
 * Why verify tells the storage backend to refuse writes (CONTRACT 14): the first that applies, in this order, the
 * customer's own limits first.
 */
public enum WriteRefusal implements WireName {
    /** Storage reached the organization's storage cap. */
    STORAGE_CAP,
    /**
     * The projected overage of the period (today's storage held to its end) reached the organization's overage cap
     * above 0, whether or not today's storage is above the allowance (storage earlier in the period may have cost
     * that much already); a cap of 0 refuses writes once storage reaches the allowance.
     */
    OVERAGE_CAP,
    /** Storage reached the allowance of a plan without overage. */
    ALLOWANCE_REACHED;

    /**
     * The refusal for an organization's standing, or null when writes are allowed.
     *
     * @param projectedOverageCents the period's projected overage in cents (read only for an overage cap above 0)
     */
    static @Nullable WriteRefusal of(Plan plan, long usedBytes, UsageLimits limits, long projectedOverageCents) {
        Long storageCap = limits.storageCapBytes();
        if (storageCap != null && usedBytes >= storageCap) {
            return STORAGE_CAP;
        }
        boolean atAllowance = usedBytes >= plan.storageBytes();
        Long overageCap = limits.overageCapCents();
        if (plan.overageBytes() > 0
                && overageCap != null
                && (overageCap == 0 ? atAllowance : projectedOverageCents >= overageCap)) {
            return OVERAGE_CAP;
        }
        if (plan.overageBytes() <= 0 && atAllowance) {
            return ALLOWANCE_REACHED;
        }
        return null;
    }
}
