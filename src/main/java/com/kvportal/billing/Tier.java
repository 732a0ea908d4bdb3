package com.kvportal.billing;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/** A plan's tier, written in lower case on the wire and in the database. */
public enum Tier {
    FREE("free"),
    PRO("pro");

    private final String wire;

    Tier(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    /** The tier with exactly this name; empty for anything else. */
    public static Optional<Tier> of(String name) {
        for (Tier tier : values()) {
            if (tier.wire.equals(name)) {
                return Optional.of(tier);
            }
        }
        return Optional.empty();
    }
}
