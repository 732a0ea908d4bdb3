package com.kvportal.apikey;

import com.kvportal.common.WireName;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What happened to a key, published synchronously inside the transaction that made the change: a listener runs in
 * that transaction, and its failure rolls the change back. Never carries the raw key or its digest.
 */
public sealed interface ApiKeyEvent {

    UUID organizationId();

    UUID projectId();

    UUID keyId();

    String keyName();

    /**
     * What happened, by the one name the audit log records and the outgoing webhooks send: {@code api_key.} and the
     * record's name in snake case ({@code api_key.revoked}); a credits notice tells low from exhausted.
     */
    default String type() {
        return "api_key." + WireName.ofType(getClass());
    }

    record Created(
            UUID organizationId,
            UUID projectId,
            UUID keyId,
            String keyName,
            List<String> permissions,
            Instant expiresAt)
            implements ApiKeyEvent {}

    /** @param changes per changed field ({@code name}, {@code permissions}, {@code expires_at}) its old and new value */
    record Updated(
            UUID organizationId,
            UUID projectId,
            UUID keyId,
            String keyName,
            Map<String, Map<String, Object>> changes,
            boolean narrowed)
            implements ApiKeyEvent {}

    /** The key {@code keyId} replaces {@code previousKeyId}, which now expires at {@code previousExpiresAt}. */
    record Rolled(
            UUID organizationId,
            UUID projectId,
            UUID keyId,
            String keyName,
            UUID previousKeyId,
            Instant previousExpiresAt,
            long graceSeconds)
            implements ApiKeyEvent {}

    /** Switched off: verify and portal calls refuse the key until it is enabled again. */
    record Disabled(UUID organizationId, UUID projectId, UUID keyId, String keyName) implements ApiKeyEvent {}

    /** Switched on again. */
    record Enabled(UUID organizationId, UUID projectId, UUID keyId, String keyName) implements ApiKeyEvent {}

    record Revoked(UUID organizationId, UUID projectId, UUID keyId, String keyName) implements ApiKeyEvent {}

    /** Revoked because a secret scanner found it in public: {@code url} and {@code source} as the report gave them. */
    record Leaked(
            UUID organizationId,
            UUID projectId,
            UUID keyId,
            String keyName,
            String tokenType,
            String url,
            String source)
            implements ApiKeyEvent {}

    /** The key expires in {@code daysBefore} days or less (a notice sent once per key and lead, 7 and 1). */
    record Expiring(UUID organizationId, UUID projectId, UUID keyId, String keyName, Instant expiresAt, int daysBefore)
            implements ApiKeyEvent {}

    /**
     * The key's credits fell to 10 % or less of its last refill or top-up ({@code exhausted} false), or to 0: at most
     * once each per refill or top-up.
     */
    record CreditsNoticed(
            UUID organizationId, UUID projectId, UUID keyId, String keyName, boolean exhausted, long remaining)
            implements ApiKeyEvent {

        @Override
        public String type() {
            return exhausted ? "api_key.credits_exhausted" : "api_key.credits_low";
        }
    }
}
