package com.kvportal.billing;

import com.kvportal.common.WireName;

/** Stripe's invoice statuses, written in lower case on the wire and in the database, with their rules. */
public enum InvoiceStatus implements WireName {
    DRAFT,
    OPEN,
    PAID,
    UNCOLLECTIBLE,
    VOID;

    /** Settled: the invoice does not go back to being payable. */
    public boolean isSettled() {
        return this == PAID || this == VOID;
    }

    /**
     * Whether an invoice in this status can be reported in {@code next} later: a settled invoice stays settled,
     * and a finalized invoice never becomes a draft again.
     */
    public boolean canBecome(InvoiceStatus next) {
        if (isSettled() && !next.isSettled()) {
            return false;
        }
        return this == DRAFT || next != DRAFT;
    }
}
