package com.kvportal.usage;

import com.kvportal.billing.Entitlement;
import com.kvportal.common.WireName;
import org.jspecify.annotations.Nullable;

/**
 * Why verify tells the storage backend to refuse writes: the first that applies, in this order, the
 * customer's own limits first.
 */
public enum WriteRefusal implements WireName {
    /** Storage reached the organization's storage cap. */
    STORAGE_CAP,
    /**
     * The projected overage of the period (today's storage held to its end) reached the organization's overage cap
     * above 0, whether or not today's storage is above the allowance (storage earlier in the period may have cost
     * that much already); a cap of 0 refuses writes once storage reaches the allowance. Only while overage is billed
     * ({@link Entitlement#billsOverageNow}): during a trial the allowance itself is the limit.
     */
    OVERAGE_CAP,
    /** Storage reached the allowance of a plan without overage. */
    ALLOWANCE_REACHED;

    /**
     * The refusal for an organization's standing, or null when writes are allowed: the customer's own limits
     * first, then billing's rule ({@link Entitlement#mayWrite}).
     *
     * @param projectedOverageCents the period's projected overage in cents (read only for an overage cap above 0)
     */
    public static @Nullable WriteRefusal of(
            Entitlement entitlement, long usedBytes, UsageLimits limits, long projectedOverageCents) {
        Long storageCap = limits.storageCapBytes();
        if (storageCap != null && usedBytes >= storageCap) {
            return STORAGE_CAP;
        }
        Long overageCap = limits.overageCapCents();
        if (entitlement.billsOverageNow()
                && overageCap != null
                && (overageCap == 0
                        ? usedBytes >= entitlement.allowanceBytes()
                        : projectedOverageCents >= overageCap)) {
            return OVERAGE_CAP;
        }
        if (!entitlement.mayWrite(usedBytes)) {
            return ALLOWANCE_REACHED;
        }
        return null;
    }
}
