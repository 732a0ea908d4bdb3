package com.kvportal.security;

import java.util.UUID;

/**
 * Ends every key of an organization when the organization is deleted. Implemented by the API-key feature (through its
 * one path of narrowing a key), so that the account feature needs no dependency on it.
 */
public interface OrganizationKeys {

    /**
     * Revokes every live key of every project of the organization, inside the caller's transaction; once that commits,
     * the request answers only after every instance dropped them (as a single revocation does).
     *
     * @return how many keys were revoked
     */
    int revokeAll(UUID organizationId);
}
