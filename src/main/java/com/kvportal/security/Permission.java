package com.kvportal.security;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What an operation needs of the caller's membership in the current organization: one constant per row of the
 * roles table of docs/teams.md, each listing the roles that may. An operation declares one in its
 * {@link ApiContract#permission()}; the security layer reads the caller's role from the membership on every request
 * and refuses a role the permission does not list (403 {@code insufficient_role}). This enum is the only place where
 * the table lives.
 */
public enum Permission {

    /** Read keys, projects, usage, the audit log, invoices and the members list: every member. */
    READ(Role.OWNER, Role.ADMIN, Role.DEVELOPER, Role.BILLING, Role.VIEWER),

    /** Create, update, roll and revoke keys; create projects. */
    MANAGE_KEYS(Role.OWNER, Role.ADMIN, Role.DEVELOPER),

    /**
     * Create, update or roll a key that holds (or would hold) {@code admin}: a key never holds more than its creator
     * may do. Checked by the key feature on the request's permissions, beside {@link #MANAGE_KEYS}.
     */
    MANAGE_ADMIN_KEYS(Role.OWNER, Role.ADMIN),

    /** Checkout, the billing portal, cancel; usage limits. */
    MANAGE_BILLING(Role.OWNER, Role.ADMIN, Role.BILLING),

    /** Outgoing webhook endpoints. */
    MANAGE_WEBHOOKS(Role.OWNER, Role.ADMIN, Role.DEVELOPER),

    /** Invite, change roles, remove members (an owner's membership only by an owner). */
    MANAGE_MEMBERS(Role.OWNER, Role.ADMIN),

    /** Transfer ownership, delete the organization. */
    MANAGE_ORGANIZATION(Role.OWNER),

    /**
     * No membership needed: calls about the signed-in customer (the session, the account, creating an organization,
     * accepting an invitation), which hold whatever organization the session is in, or none.
     */
    SIGNED_IN();

    private final Set<Role> roles;

    Permission(Role... roles) {
        EnumSet<Role> set = EnumSet.noneOf(Role.class);
        set.addAll(Arrays.asList(roles));
        this.roles = Collections.unmodifiableSet(set);
    }

    /** Whether the operation needs a membership in the current organization at all. */
    public boolean needsMembership() {
        return this != SIGNED_IN;
    }

    public boolean allows(Role role) {
        return !needsMembership() || roles.contains(role);
    }

    /** The name a client sees, e.g. in the session's organizations: {@code manage_keys}. */
    public String wire() {
        return name().toLowerCase();
    }

    /** Every permission of the table the role holds, as a client names them (the dashboard offers only these). */
    public static List<String> heldBy(Role role) {
        return Arrays.stream(values())
                .filter(p -> p.needsMembership() && p.allows(role))
                .map(Permission::wire)
                .toList();
    }

    /** The roles that may, in the table's order. */
    public Set<Role> roles() {
        return roles;
    }
}
