package com.kvportal.billing;

import org.jspecify.annotations.Nullable;

/**
 * What an organization is entitled to now, as billing decides it: its effective plan, the status
 * of the subscription that grants it, and whether the plan lets it write. The one place these rules meet: usage
 * and verify ask it, and the dashboard shows what the server answers.
 *
 * @param plan the effective plan: the subscription's while its status grants it
 *     ({@link SubscriptionStatus#grantsPlan()}: active, trialing or past due), else free
 * @param subscriptionStatus the status of the subscription that grants {@code plan}; null on the free plan without
 *     one
 */
public record Entitlement(Plan plan, @Nullable SubscriptionStatus subscriptionStatus) {

    /** The plan of an organization without a subscription that grants one. */
    public static Entitlement free(Plan free) {
        if (free.tier() != Tier.FREE) {
            throw new IllegalArgumentException(
                    "not the free plan: " + free.tier().wire());
        }
        return new Entitlement(free, null);
    }

    public Tier tier() {
        return plan.tier();
    }

    /** The effective plan's storage allowance in bytes. */
    public long allowanceBytes() {
        return plan.storageBytes();
    }

    /** Whether storage above the allowance is billed as overage (pro) rather than refused (free). */
    public boolean billsOverage() {
        return plan.overageBytes() > 0;
    }

    /** True while the subscription is in its trial: no overage is billed, so the allowance is a hard limit. */
    public boolean inTrial() {
        return subscriptionStatus == SubscriptionStatus.TRIALING;
    }

    /**
     * Whether storage above the allowance is billed now: a plan with overage, outside a trial (a trial bills no
     * overage). The overage cap, which caps what is billed, applies only then; during a trial the allowance is the
     * limit ({@link #mayWrite}).
     */
    public boolean billsOverageNow() {
        return billsOverage() && !inTrial();
    }

    /**
     * Billing's rule for writes: refused once storage reaches the allowance of a plan without overage, or of any
     * plan during a trial; a plan with overage (a past-due pro subscription's too) keeps writing and bills the
     * overage. The customer's own limits come on top (usage's {@code WriteRefusal}).
     */
    public boolean mayWrite(long usedBytes) {
        return billsOverageNow() || usedBytes < allowanceBytes();
    }
}
