package com.kvportal.security;

import java.util.Optional;
import java.util.UUID;

/**
 * The customer's role in an organization, read from the membership. Implemented by the account feature, so that
 * security needs no dependency on it.
 */
public interface Memberships {

    /** The role, or empty when the customer is no member (never was, was removed, or the organization is gone). */
    Optional<Role> roleOf(UUID customerId, UUID organizationId);

    /**
     * A session's caller as it stands now: one whose current organization the customer no longer belongs to (removed,
     * left, deleted) moves to the first project of the customer's first remaining organization, or to none (then
     * without organization and project). A key's caller, or a member's, is answered as it is.
     */
    Caller current(Caller caller);
}
