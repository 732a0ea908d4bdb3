package com.kvportal.billing;

import com.kvportal.common.WireName;

/** Stripe's subscription statuses, written in lower case on the wire and in the database, with their rules. */
public enum SubscriptionStatus implements WireName {
    INCOMPLETE,
    INCOMPLETE_EXPIRED,
    TRIALING,
    ACTIVE,
    PAST_DUE,
    CANCELED,
    UNPAID,
    PAUSED;

    /** Over for good: the organization is on free again, and no later news brings the subscription back. */
    public boolean hasEnded() {
        return this == CANCELED || this == INCOMPLETE_EXPIRED;
    }

    /** The organization has the subscription's plan (its effective plan) while it is in this status. */
    public boolean grantsPlan() {
        return this == ACTIVE || this == TRIALING || this == PAST_DUE;
    }
}
