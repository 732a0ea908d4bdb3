package com.kvportal.security;

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
     * The role an API key acts with in its project's organization, given its creator's role there now: a key with
     * {@code admin} acts as the lesser of admin and its creator's role, that is as an admin while its creator is an
     * owner or admin, and with no role at all once the creator is not (demoted, removed, left: its portal calls are
     * refused); a key without {@code admin} as a developer (portal calls refuse it anyway, except revoking itself).
     * Empty for a session.
     */
    public Optional<Role> keyRole(Optional<Role> creatorRole) {
        if (!viaApiKey()) {
            return Optional.empty();
        }
        if (!can("admin")) {
            return Optional.of(Role.DEVELOPER);
        }
        return creatorRole.filter(Role::administers).map(creator -> Role.ADMIN);
    }

    public boolean can(String permission) {
        return permissions.contains(permission);
    }

    public Caller withProject(UUID organizationId, UUID projectId) {
        return new Caller(customerId, organizationId, projectId, apiKeyId, permissions);
    }
}
