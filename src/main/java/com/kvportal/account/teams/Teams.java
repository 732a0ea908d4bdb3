package com.kvportal.account.teams;

import com.kvportal.account.AccountEvent;
import com.kvportal.account.AccountProblem;
import com.kvportal.account.AccountProblem.MemberLimitReached;
import com.kvportal.account.AccountProblem.OrganizationLimitReached;
import com.kvportal.account.AccountProblem.ReauthenticationFailed;
import com.kvportal.account.AccountProblem.SessionRequired;
import com.kvportal.account.AccountProblem.TokenInvalid;
import com.kvportal.account.Customers;
import com.kvportal.account.Project;
import com.kvportal.account.Projects;
import com.kvportal.account.credentials.AccountSecurity;
import com.kvportal.account.teams.MemberList.InvitationView;
import com.kvportal.account.teams.MemberList.MemberView;
import com.kvportal.common.AppBaseUrl;
import com.kvportal.common.limits.WindowLimits;
import com.kvportal.common.web.ProblemException;
import com.kvportal.common.web.Problems;
import com.kvportal.mail.Mail;
import com.kvportal.mail.Mailer;
import com.kvportal.security.Caller;
import com.kvportal.security.CallerRoles;
import com.kvportal.security.InsufficientRole;
import com.kvportal.security.Permission;
import com.kvportal.security.Role;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Organizations, their members and invitations (docs/teams.md). Who may call what is declared on each
 * endpoint ({@link Permission}) and enforced before the call; what depends on the member acted upon (an owner's
 * membership only by an owner, the last owner stays) is decided here, under the organization's row lock, with the
 * actor's role read again under that lock, so that concurrent changes are decided one after the other.
 */
@Service
@RequiredArgsConstructor
public class Teams {

    static final int MAX_MEMBERS = 100;
    static final Duration INVITATION_LIFETIME = Duration.ofDays(7);
    static final int MAX_OWNED_ORGANIZATIONS = 20;
    static final int MAX_INVITATION_MAILS_PER_ORGANIZATION_HOUR = 20;
    static final int MAX_INVITATION_MAILS_PER_ADDRESS_DAY = 3;

    /** Characters that reorder the text around them on screen: a name could make the mail read otherwise. */
    private static final java.util.regex.Pattern BIDI_CONTROLS =
            java.util.regex.Pattern.compile("[\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069]");

    private final Members members;
    private final CallerRoles roles;
    private final Invitations invitations;
    private final Customers customers;
    private final Projects projects;
    private final AccountSecurity security;
    private final Mailer mailer;
    private final WindowLimits windowLimits;
    private final AppBaseUrl baseUrl;
    private final ApplicationEventPublisher events;

    /** A new organization owned by the signed-in customer, with a Default project; the session stays where it is. */
    @Transactional
    CreatedOrganization createOrganization(Caller caller, NewOrganization request) {
        if (caller.viaApiKey()) {
            throw new SessionRequired("An API key is bound to its project; creating an organization takes a session.");
        }
        String name = Objects.requireNonNull(request.name()).strip();
        // the customer's row lock: two creations at once are counted one after the other
        customers.lock(caller.customerId()).orElseThrow();
        if (members.countOwned(caller.customerId()) >= MAX_OWNED_ORGANIZATIONS) {
            throw new OrganizationLimitReached(MAX_OWNED_ORGANIZATIONS);
        }
        UUID organizationId = UUID.randomUUID();
        customers.insertOrganization(organizationId, name, caller.customerId());
        Project project = projects.insert(UUID.randomUUID(), organizationId, "Default project");
        events.publishEvent(
                new AccountEvent.OrganizationCreated(caller.customerId(), organizationId, name, project.id()));
        return new CreatedOrganization(organizationId, name, Role.OWNER, project.id());
    }

    MemberList members(Caller caller) {
        return new MemberList(
                members.list(caller.organizationId()).stream()
                        .map(MemberView::of)
                        .toList(),
                invitations.pending(caller.organizationId()).stream()
                        .map(InvitationView::of)
                        .toList());
    }

    @Transactional
    InvitationView invite(Caller caller, NewInvitation request) {
        String email = Objects.requireNonNull(request.email()).strip();
        Role role = Role.ofWire(Objects.requireNonNull(request.role())).orElseThrow();
        Members.LockedOrganization organization = lock(caller);
        actorRole(caller, Permission.MANAGE_MEMBERS);
        if (members.isMemberByEmail(organization.id(), email)) {
            throw AccountProblem.ALREADY_MEMBER.exception();
        }
        if (members.count(organization.id()) + invitations.countPending(organization.id(), email) >= MAX_MEMBERS) {
            throw new MemberLimitReached(MAX_MEMBERS);
        }
        windowLimits.take(
                new WindowLimits.Limit(
                        "invitations-from:" + organization.id(),
                        MAX_INVITATION_MAILS_PER_ORGANIZATION_HOUR,
                        Duration.ofHours(1),
                        "This organization sent " + MAX_INVITATION_MAILS_PER_ORGANIZATION_HOUR
                                + " invitation mails within the last hour, the most it may."),
                new WindowLimits.Limit(
                        "invitations-to:" + email.toLowerCase(Locale.ROOT),
                        MAX_INVITATION_MAILS_PER_ADDRESS_DAY,
                        Duration.ofDays(1),
                        "This address got " + MAX_INVITATION_MAILS_PER_ADDRESS_DAY
                                + " invitation mails within the last day (re-invitations included), the most it may;"
                                + " the pending invitation stays valid."));
        Invitations.Issued issued =
                invitations.issue(organization.id(), email, role, caller.customerId(), INVITATION_LIFETIME);
        // the organization's name is anybody's text: it stays out of the subject, and the body shows it quoted
        mailer.send(new Mail(
                email,
                "You are invited to join an organization on kv-portal",
                "invitation",
                Map.of(
                        "email", email,
                        "organization",
                                BIDI_CONTROLS.matcher(organization.name()).replaceAll(""),
                        "role", role.wire(),
                        "inviter", customers.emailOf(caller.customerId()).orElse("A member"),
                        "link", baseUrl.resolveWithToken("/accept-invitation", issued.token()))));
        events.publishEvent(new AccountEvent.MemberInvited(
                organization.id(), issued.invitation().id(), email, role.wire()));
        return InvitationView.of(issued.invitation());
    }

    @Transactional
    void revokeInvitation(Caller caller, UUID invitationId) {
        Members.LockedOrganization organization = lock(caller);
        actorRole(caller, Permission.MANAGE_MEMBERS);
        Invitations.Invitation revoked = invitations
                .delete(organization.id(), invitationId)
                .orElseThrow(AccountProblem.INVITATION_NOT_FOUND::exception);
        events.publishEvent(new AccountEvent.InvitationRevoked(organization.id(), revoked.id(), revoked.email()));
    }

    /** The signed-in customer, whose verified address the invitation went to, joins its organization. */
    @Transactional
    Joined accept(Caller caller, Acceptance acceptance) {
        if (caller.viaApiKey()) {
            throw new SessionRequired("Accepting an invitation takes a signed-in session.");
        }
        Invitations.Pending pending = invitations.find(acceptance.token()).orElseThrow(TokenInvalid::new);
        String email = customers.emailOf(caller.customerId()).orElseThrow();
        if (!email.equalsIgnoreCase(pending.email()) || !customers.emailVerified(caller.customerId())) {
            throw AccountProblem.INVITATION_EMAIL_MISMATCH.exception();
        }
        return join(pending, caller.customerId(), email);
    }

    /**
     * A signup that carries an invitation's token: the address must be the invited one (403 {@code
     * invitation_email_mismatch}); a bad, used or expired token answers 400 {@code token_invalid}. Checked before the
     * customer exists, used up once it does (in the signup's transaction).
     */
    public Invitations.Pending invitationForSignup(String token, String email) {
        Invitations.Pending pending = invitations.find(token).orElseThrow(TokenInvalid::new);
        if (!email.equalsIgnoreCase(pending.email())) {
            throw AccountProblem.INVITATION_EMAIL_MISMATCH.exception();
        }
        return pending;
    }

    /**
     * Uses the invitation up, under the organization's lock, and joins the customer with its role: on accepting, or
     * in the transaction of the signup that carried the invitation.
     */
    public Joined join(Invitations.Pending pending, UUID customerId, String email) {
        members.lockOrganization(pending.organizationId()).orElseThrow(TokenInvalid::new);
        if (!invitations.redeem(pending.id())) {
            throw new TokenInvalid();
        }
        if (members.insert(pending.organizationId(), customerId, pending.role())) {
            events.publishEvent(new AccountEvent.MemberJoined(
                    pending.organizationId(), customerId, email, pending.role().wire()));
            return new Joined(pending.organizationId(), pending.role());
        }
        Role current = members.roleOf(customerId, pending.organizationId()).orElseThrow();
        return new Joined(pending.organizationId(), current);
    }

    @Transactional
    MemberView changeRole(Caller caller, UUID customerId, RoleChange change) {
        Role role = Role.ofWire(Objects.requireNonNull(change.role())).orElseThrow();
        Members.LockedOrganization organization = lock(caller);
        Role actor = actorRole(caller, Permission.MANAGE_MEMBERS);
        Members.Member target = member(organization, customerId);
        if ((target.role() == Role.OWNER || role == Role.OWNER) && actor != Role.OWNER) {
            throw new InsufficientRole("Only an owner may change an owner's role or make a member owner.");
        }
        if (target.role() == role) {
            return MemberView.of(target);
        }
        requireAnotherOwner(organization, target);
        members.setRole(organization.id(), customerId, role);
        members.keepBillingOwnerAnOwner(organization.id());
        events.publishEvent(new AccountEvent.RoleChanged(
                organization.id(), customerId, target.email(), target.role().wire(), role.wire()));
        return new MemberView(customerId, target.email(), role, target.joinedAt());
    }

    /** Removes a member, or (the caller's own id, with a session) leaves. */
    @Transactional
    void remove(Caller caller, UUID customerId) {
        Members.LockedOrganization organization = lock(caller);
        boolean leaving = !caller.viaApiKey() && caller.customerId().equals(customerId);
        Role actor = actorRole(caller, leaving ? Permission.READ : Permission.MANAGE_MEMBERS);
        Members.Member target = member(organization, customerId);
        if (!leaving && target.role() == Role.OWNER && actor != Role.OWNER) {
            throw new InsufficientRole("Only an owner may remove an owner.");
        }
        requireAnotherOwner(organization, target);
        members.delete(organization.id(), customerId);
        members.keepBillingOwnerAnOwner(organization.id());
        if (leaving) {
            events.publishEvent(new AccountEvent.MemberLeft(
                    organization.id(), customerId, target.email(), target.role().wire()));
            return;
        }
        mailer.send(new Mail(
                target.email(),
                "You were removed from " + organization.name() + " on kv-portal",
                "member-removed",
                Map.of("email", target.email(), "organization", organization.name())));
        events.publishEvent(new AccountEvent.MemberRemoved(
                organization.id(), customerId, target.email(), target.role().wire()));
    }

    /** The owner makes another member owner and becomes admin. */
    @Transactional(noRollbackFor = ReauthenticationFailed.class)
    void transfer(Caller caller, Transfer request) {
        if (caller.viaApiKey()) {
            throw new SessionRequired("Transferring the ownership takes a signed-in session and its password.");
        }
        UUID to = Objects.requireNonNull(request.customerId());
        Members.LockedOrganization organization = lock(caller);
        actorRole(caller, Permission.MANAGE_ORGANIZATION);
        Members.Member target = member(organization, to);
        Customers.Credentials owner = security.reauthenticate(caller, request.currentPassword());
        if (to.equals(caller.customerId())) {
            return; // the owner stays owner: nothing changes
        }
        members.setRole(organization.id(), to, Role.OWNER);
        members.setRole(organization.id(), caller.customerId(), Role.ADMIN);
        members.setBillingOwner(organization.id(), to);
        mailer.send(new Mail(
                target.email(),
                "You are now the owner of " + organization.name() + " on kv-portal",
                "ownership-transferred",
                Map.of(
                        "email", target.email(),
                        "organization", organization.name(),
                        "previous", owner.email(),
                        "link", baseUrl.resolve("/dashboard/members"))));
        events.publishEvent(
                new AccountEvent.OwnershipTransferred(organization.id(), caller.customerId(), to, target.email()));
    }

    /**
     * Deletes the current organization. {@link AccountEvent.OrganizationDeleted} is published inside this transaction,
     * and its listeners run in it before the members go: the API-key feature revokes every live key (so they stop
     * working once the deletion is answered), billing ends the live subscription at the provider; a listener that
     * fails rolls the deletion back. Then invitations and members go; the row stays (invoices and audit lines refer
     * to it), marked deleted.
     */
    @Transactional(noRollbackFor = ReauthenticationFailed.class)
    Deleted delete(Caller caller, Deletion request) {
        if (caller.viaApiKey()) {
            throw new SessionRequired("Deleting an organization takes a signed-in session and its password.");
        }
        Members.LockedOrganization organization = lock(caller);
        actorRole(caller, Permission.MANAGE_ORGANIZATION);
        if (!organization.name().equals(Objects.requireNonNull(request.name()).strip())) {
            throw new ProblemException(Problems.validation(
                    "Repeat the organization's name to delete it.",
                    List.of(Map.of("field", "name", "message", "must repeat the organization's name"))));
        }
        security.reauthenticate(caller, request.currentPassword());
        events.publishEvent(new AccountEvent.OrganizationDeleted(organization.id(), organization.name()));
        invitations.deleteAll(organization.id());
        members.deleteAll(organization.id());
        members.markDeleted(organization.id());
        return new Deleted(organization.id(), organization.name());
    }

    /** The member acted upon, or 404 {@code member_not_found}. */
    private Members.Member member(Members.LockedOrganization organization, UUID customerId) {
        return members.find(organization.id(), customerId).orElseThrow(AccountProblem.MEMBER_NOT_FOUND::exception);
    }

    /** The last owner stays: their membership neither ends nor loses the owner's role (409 {@code last_owner}). */
    private void requireAnotherOwner(Members.LockedOrganization organization, Members.Member target) {
        if (target.role() == Role.OWNER && members.countOwners(organization.id()) == 1) {
            throw AccountProblem.LAST_OWNER.exception();
        }
    }

    private Members.LockedOrganization lock(Caller caller) {
        return members.lockOrganization(caller.organizationId()).orElseThrow(InsufficientRole::new);
    }

    /**
     * The caller's role, read again under the organization's lock (a request that passed the endpoint's check may
     * have waited for the lock while its caller was demoted or removed).
     */
    private Role actorRole(Caller caller, Permission permission) {
        return roles.require(caller, permission);
    }
}
