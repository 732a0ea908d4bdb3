package com.kvportal.security;

import java.util.Optional;

/**
 * Turns a presented API key into the caller it stands for. Implemented by the API-key feature, so that security
 * needs no dependency on it (the key feature depends on security for {@link Caller}).
 */
public interface ApiKeyAuthenticator {

    /**
     * The caller that a usable key stands for, or empty for a key that is malformed, unknown, revoked or expired.
     *
     * @param client the {@link com.kvportal.common.limits.ClientAddress} whose lookup budget a miss spends
     * @param address the client's address as the abuse limits see it ({@code getRemoteAddr()}), which the key's
     *     allowed addresses must hold
     * @throws com.kvportal.common.limits.TooManyRequests when {@code client} spent its budget of lookups that miss
     * @throws com.kvportal.common.web.ProblemException 401 {@code api_key_disabled} for a key switched off, 403
     *     {@code ip_not_allowed} for a key used from outside its allowed addresses
     */
    Optional<Caller> authenticate(String presentedKey, String client, String address);
}
