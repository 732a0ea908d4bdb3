package com.kvportal.security;

import java.util.UUID;

/**
 * Whether a customer has verified their email address. Implemented by the account feature, so that security needs no
 * dependency on it.
 */
public interface EmailVerifications {

    boolean emailVerified(UUID customerId);
}
