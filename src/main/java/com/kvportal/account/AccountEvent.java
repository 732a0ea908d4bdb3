package com.kvportal.account;

import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * What happened to an account, published synchronously where it happens (inside the transaction of a change, so
 * that a listener's work commits or rolls back with it). Never carries a password.
 */
public sealed interface AccountEvent {

    UUID organizationId();

    /**
     * An event about one customer: their own account, or their membership. {@code email} is the customer's address
     * (after a change of address, the new one).
     */
    sealed interface OfCustomer extends AccountEvent {

        UUID customerId();

        String email();
    }

    record SignedUp(UUID customerId, String email, UUID organizationId, UUID projectId) implements OfCustomer {}

    record LoggedIn(UUID customerId, String email, UUID organizationId, UUID projectId) implements OfCustomer {}

    /**
     * A login for a known email address failed: {@code reason} is {@code invalid_credentials}, {@code
     * too_many_attempts} or, at the second step, {@code invalid_code}. Logins for unknown addresses belong to no organization and are not published.
     */
    record LoginFailed(UUID customerId, String email, UUID organizationId, String reason) implements OfCustomer {}

    /** @param apiKeyId the key used as credential, or null for a session */
    record LoggedOut(UUID customerId, UUID organizationId, UUID projectId, @Nullable UUID apiKeyId)
            implements AccountEvent {}

    record ProjectCreated(UUID organizationId, UUID projectId, String name) implements AccountEvent {}

    /** The customer opened the verification link sent to {@code email}. */
    record EmailVerified(UUID customerId, String email, UUID organizationId) implements OfCustomer {}

    /** A reset link went to a known address (requests for unknown ones belong to no organization). */
    record PasswordResetRequested(UUID customerId, String email, UUID organizationId) implements OfCustomer {}

    /** The password was set through a reset link; every session of the customer ended. */
    record PasswordReset(UUID customerId, String email, UUID organizationId, int sessionsEnded) implements OfCustomer {}

    /** The signed-in customer changed the password; the other sessions ended. */
    record PasswordChanged(UUID customerId, String email, UUID organizationId, int sessionsEnded)
            implements OfCustomer {}

    record EmailChanged(UUID customerId, String previousEmail, String email, UUID organizationId)
            implements OfCustomer {}

    /** @param how {@code one} (from the session list), {@code others} (every other session) */
    record SessionEnded(UUID customerId, String email, UUID organizationId, String how, int sessionsEnded)
            implements OfCustomer {}

    record TotpEnabled(UUID customerId, String email, UUID organizationId) implements OfCustomer {}

    record TotpDisabled(UUID customerId, String email, UUID organizationId) implements OfCustomer {}

    /** A recovery code replaced the second step of a login; {@code remaining} are left unused. */
    record RecoveryCodeUsed(UUID customerId, String email, UUID organizationId, int remaining) implements OfCustomer {}

    record OrganizationCreated(UUID customerId, UUID organizationId, String name, UUID projectId)
            implements AccountEvent {}

    /** @param role the wire name of the role offered */
    record MemberInvited(UUID organizationId, UUID invitationId, String email, String role) implements AccountEvent {}

    record InvitationRevoked(UUID organizationId, UUID invitationId, String email) implements AccountEvent {}

    record MemberJoined(UUID organizationId, UUID customerId, String email, String role) implements OfCustomer {}

    record RoleChanged(UUID organizationId, UUID customerId, String email, String previousRole, String role)
            implements OfCustomer {}

    /** Someone else removed the member. */
    record MemberRemoved(UUID organizationId, UUID customerId, String email, String role) implements OfCustomer {}

    /** The member removed themself. */
    record MemberLeft(UUID organizationId, UUID customerId, String email, String role) implements OfCustomer {}

    record OwnershipTransferred(UUID organizationId, UUID fromCustomerId, UUID toCustomerId, String toEmail)
            implements AccountEvent {}

    /**
     * The organization is deleted: listeners in the same transaction end what belongs to it (its keys, its
     * subscription); its members and invitations are gone, its invoices and audit lines stay.
     */
    record OrganizationDeleted(UUID organizationId, String name) implements AccountEvent {}
}
