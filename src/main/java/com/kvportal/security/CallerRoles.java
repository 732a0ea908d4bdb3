package com.kvportal.security;

import java.util.Optional;
import lombok.RequiredArgsConstructor;
import org.springframework.stereotype.Component;

/**
 * The role a caller acts with in its current organization, read from the membership now (no cache, so a change holds
 * from the next request on every instance): a session's own membership; an API key's as {@link Caller#keyRole}
 * derives it from its creator's membership.
 */
@Component
@RequiredArgsConstructor
public class CallerRoles {

    static final String KEY_CREATOR_GONE = "This API key acts for the member who created it, who is no longer an owner"
            + " or admin of this organization, so it may no longer make portal calls (verify is unaffected). Ask an"
            + " owner or admin for a new key, or revoke this one.";

    private final Memberships memberships;

    /** The role, or empty for a customer who is no member, or for a key whose creator is no longer owner or admin. */
    public Optional<Role> of(Caller caller) {
        Optional<Role> member = memberships.roleOf(caller.customerId(), caller.organizationId());
        return caller.viaApiKey() ? caller.keyRole(member) : member;
    }

    /** Whether the caller's role allows the permission now. */
    public boolean holds(Caller caller, Permission permission) {
        return of(caller).filter(permission::allows).isPresent();
    }

    /**
     * The caller's role, which must allow the permission.
     *
     * @throws InsufficientRole when there is none or it does not allow the permission
     */
    public Role require(Caller caller, Permission permission) {
        Role role = of(caller)
                .orElseThrow(() -> new InsufficientRole(
                        caller.viaApiKey() ? KEY_CREATOR_GONE : "You are no longer a member of this organization."));
        if (!permission.allows(role)) {
            throw new InsufficientRole("Your role in this organization (" + role.wire() + ") may not do this.");
        }
        return role;
    }
}
