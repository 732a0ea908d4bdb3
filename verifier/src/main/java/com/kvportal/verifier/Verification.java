package com.kvportal.verifier;

import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * What verify answers for one key, from the cache or from the service. {@link #valid()}: the key may be used (and
 * {@link #permissions()} say for what, {@link #writeAllowed()} whether writes that add data are allowed); otherwise
 * {@link #code()} is the problem code the service's verify answers ({@code invalid_api_key}, {@code api_key_revoked},
 * {@code api_key_expired}, {@code api_key_disabled}, {@code ip_not_allowed}, {@code rate_limited}, {@code
 * credits_exhausted}, {@code too_many_requests}, {@code database_unavailable}, ...) and every other field is null
 * (false for {@link #writeAllowed()}). Immutable; a cached answer is the same instance every time.
 */
public final class Verification {

    private final String code;
    private final UUID keyId;
    private final UUID customerId;
    private final UUID projectId;
    private final UUID organizationId;
    private final List<String> permissions;
    private final String tier;
    private final boolean writeAllowed;

    private Verification(
            String code,
            UUID keyId,
            UUID customerId,
            UUID projectId,
            UUID organizationId,
            List<String> permissions,
            String tier,
            boolean writeAllowed) {
        this.code = code;
        this.keyId = keyId;
        this.customerId = customerId;
        this.projectId = projectId;
        this.organizationId = organizationId;
        this.permissions = permissions;
        this.tier = tier;
        this.writeAllowed = writeAllowed;
    }

    static Verification valid(
            UUID keyId,
            UUID customerId,
            UUID projectId,
            UUID organizationId,
            List<String> permissions,
            String tier,
            boolean writeAllowed) {
        return new Verification(
                null,
                keyId,
                Objects.requireNonNull(customerId, "customer_id"),
                Objects.requireNonNull(projectId, "project_id"),
                Objects.requireNonNull(organizationId, "organization_id"),
                List.copyOf(permissions),
                Objects.requireNonNull(tier, "tier"),
                writeAllowed);
    }

    static Verification refused(String code) {
        return new Verification(Objects.requireNonNull(code, "code"), null, null, null, null, null, null, false);
    }

    /** Whether the key may be used. */
    public boolean valid() {
        return code == null;
    }

    /** Null for a valid key; else the problem code the service's verify answers. */
    public String code() {
        return code;
    }

    /** The key's id (null when refused, or when the service answered without it). */
    public UUID keyId() {
        return keyId;
    }

    /** The customer who created the key. */
    public UUID customerId() {
        return customerId;
    }

    public UUID projectId() {
        return projectId;
    }

    public UUID organizationId() {
        return organizationId;
    }

    /** Some of {@code read}, {@code write}, {@code admin}; null when refused. */
    public List<String> permissions() {
        return permissions;
    }

    /** Whether the permissions include this one ({@code read}, {@code write} or {@code admin}). */
    public boolean permits(String permission) {
        return permissions != null && permissions.contains(permission);
    }

    /** The organization's effective plan ({@code free}, {@code pro}, {@code team}, ...). */
    public String tier() {
        return tier;
    }

    /** False when writes that add data must be refused (the storage allowance or a cap is reached). */
    public boolean writeAllowed() {
        return writeAllowed;
    }

    @Override
    public String toString() {
        return valid()
                ? "Verification[valid, key " + keyId + ", project " + projectId + ", " + permissions + ", " + tier
                        + (writeAllowed ? "" : ", writes refused") + "]"
                : "Verification[" + code + "]";
    }
}
