package com.kvportal.security;

import com.kvportal.common.openapi.Role;
import java.io.Serializable;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Who is calling and on whose behalf: the customer, the current organization and the active project,
 * from a session or from an API key. Controllers take it as a method parameter.
 *
 * @param apiKeyId the key used as credential, or null for a session
 * @param permissions the key's permissions; a session holds every permission
 */
public record Caller(
        UUID customerId, UUID organizationId, UUID projectId, @Nullable UUID apiKeyId, Set<String> permissions)
        implements Serializable {

    public static final Set<String> ALL_PERMISSIONS = Set.of("read", "write", "admin");

    public Caller {
        permissions = Set.copyOf(permissions);
    }

    public static Caller ofSession(UUID customerId, UUID organizationId, UUID projectId) {
        return new Caller(customerId, organizationId, projectId, null, ALL_PERMISSIONS);
    }

    public boolean viaApiKey() {
        return apiKeyId != null;
    }

    /**
     * The role an API key acts with in its project's organization: a key with {@code admin} as an admin, any other
     * key as a developer (portal calls refuse it anyway, except revoking itself); empty for a session.
     */
    public Optional<Role> keyRole() {
        if (!viaApiKey()) {
            return Optional.empty();
        }
        return Optional.of(can("admin") ? Role.ADMIN : Role.DEVELOPER);
    }

    public boolean can(String permission) {
        return permissions.contains(permission);
    }

    public Caller withProject(UUID organizationId, UUID projectId) {
        return new Caller(customerId, organizationId, projectId, apiKeyId, permissions);
    }
}
