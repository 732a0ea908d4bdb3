package com.kvportal.billing;

import java.util.Optional;

/** A plan's tier, written in lower case on the wire and in the database. */
public enum Tier implements WireName {
    FREE,
    PRO;

    /** The tier with exactly this name; empty for anything else. */
    public static Optional<Tier> of(String name) {
        return WireName.of(Tier.class, name);
    }
}
