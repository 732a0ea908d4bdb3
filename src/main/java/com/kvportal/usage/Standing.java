package com.kvportal.usage;

import com.kvportal.billing.Entitlement;
import com.kvportal.billing.Tier;
import org.jspecify.annotations.Nullable;

/**
 * What the storage backend needs to enforce the plan.
 *
 * @param entitlement the organization's effective plan and the status that grants it (billing's)
 * @param usedBytes its current storage: the sum of its projects' latest samples
 * @param refusal why writes are refused, or null when they are allowed
 */
public record Standing(Entitlement entitlement, long usedBytes, @Nullable WriteRefusal refusal) {

    /** The effective plan's tier. */
    public Tier tier() {
        return entitlement.tier();
    }

    /** The effective plan's storage allowance. */
    public long allowanceBytes() {
        return entitlement.allowanceBytes();
    }

    /** False when the backend must refuse writes (reads go on). */
    public boolean writeAllowed() {
        return refusal == null;
    }
}
