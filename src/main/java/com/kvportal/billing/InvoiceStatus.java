package com.kvportal.billing;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Optional;

/** Stripe's invoice statuses, written in lower case on the wire and in the database, with their rules. */
public enum InvoiceStatus {
    DRAFT("draft"),
    OPEN("open"),
    PAID("paid"),
    UNCOLLECTIBLE("uncollectible"),
    VOID("void");

    private final String wire;

    InvoiceStatus(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    /** The status with exactly this name; empty for anything else. */
    public static Optional<InvoiceStatus> of(String name) {
        return Arrays.stream(values()).filter(s -> s.wire.equals(name)).findFirst();
    }

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
