package com.kvportal.security;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.List;
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

    /** Every role's wire name but those excepted, in the enum's order: what a {@link RoleName} field takes. */
    public static List<String> wiresExcept(Role... except) {
        List<Role> excepted = List.of(except);
        return Arrays.stream(values())
                .filter(role -> !excepted.contains(role))
                .map(Role::wire)
                .toList();
    }

    public static Optional<Role> ofWire(String value) {
        return Arrays.stream(values()).filter(r -> r.wire().equals(value)).findFirst();
    }
}
