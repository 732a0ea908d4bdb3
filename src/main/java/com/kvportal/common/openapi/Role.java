package com.kvportal.common.openapi;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Optional;

/** A member's role in an organization (docs/teams.md), as the API and the database spell it. */
public enum Role {
    OWNER,
    ADMIN,
    DEVELOPER,
    BILLING,
    VIEWER;

    /** An owner or an admin: the roles that run the organization (and may give a key {@code admin}). */
    public boolean administers() {
        return this == OWNER || this == ADMIN;
    }

    @JsonValue
    public String wire() {
        return name().toLowerCase();
    }

    public static Optional<Role> ofWire(String value) {
        return Arrays.stream(values()).filter(r -> r.wire().equals(value)).findFirst();
    }
}
