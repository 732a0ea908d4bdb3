package com.kvportal.security;

import com.kvportal.common.openapi.Role;
import java.util.Optional;
import java.util.UUID;

/**
 * The customer's role in an organization, read from the membership. Implemented by the account feature, so that
 * security needs no dependency on it.
 */
public interface Memberships {

    /** The role, or empty when the customer is no member (never was, was removed, or the organization is gone). */
    Optional<Role> roleOf(UUID customerId, UUID organizationId);
}
