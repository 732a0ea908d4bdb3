package com.kvportal.billing;

import java.util.Optional;

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

    /** The status with exactly this name; empty for anything else. */
    public static Optional<SubscriptionStatus> of(String name) {
        return WireName.of(SubscriptionStatus.class, name);
    }

    /** Over for good: the organization is on free again, and no later news brings the subscription back. */
    public boolean hasEnded() {
        return this == CANCELED || this == INCOMPLETE_EXPIRED;
    }

    /** The organization has the subscription's plan (its effective plan) while it is in this status. */
    public boolean grantsPlan() {
        return this == ACTIVE || this == TRIALING || this == PAST_DUE;
    }
}
