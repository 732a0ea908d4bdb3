package com.kvportal.audit;

import com.kvportal.account.AccountEvent;
import com.kvportal.audit.AuditEvent.Party;
import java.util.Map;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Audit lines for organizations and their members (docs/teams.md). Synchronous, in the change's transaction;
 * never an invitation's token.
 */
@Component
@RequiredArgsConstructor
class TeamsAuditTrail {

    private final AuditLog audit;

    @EventListener
    void organizationCreated(AccountEvent.OrganizationCreated e) {
        audit.record(
                e.organizationId(),
                "organization.created",
                audit.actorOr(audit.customer(e.customerId())),
                organization(e.organizationId(), e.name()),
                e.projectId(),
                Map.of());
    }

    @EventListener
    void invited(AccountEvent.MemberInvited e) {
        Party invitation = invitation(e.invitationId(), e.email());
        audit.byCaller(e.organizationId(), "member.invited", invitation, Map.of("role", e.role()));
    }

    @EventListener
    void invitationRevoked(AccountEvent.InvitationRevoked e) {
        Party invitation = invitation(e.invitationId(), e.email());
        audit.byCaller(e.organizationId(), "member.invitation_revoked", invitation, Map.of());
    }

    @EventListener
    void joined(AccountEvent.MemberJoined e) {
        audit.bySelf(e, "member.joined", null, Map.of("role", e.role()));
    }

    @EventListener
    void roleChanged(AccountEvent.RoleChanged e) {
        audit.byCaller(e, "member.role_changed", Map.of("previous_role", e.previousRole(), "role", e.role()));
    }

    @EventListener
    void removed(AccountEvent.MemberRemoved e) {
        audit.byCaller(e, "member.removed", Map.of("role", e.role()));
    }

    @EventListener
    void left(AccountEvent.MemberLeft e) {
        audit.bySelf(e, "member.left", null, Map.of("role", e.role()));
    }

    /** Only the signed-in owner hands the organization on: the caller is the actor, as of every other member change. */
    @EventListener
    void ownershipTransferred(AccountEvent.OwnershipTransferred e) {
        Party newOwner = Party.customer(e.toCustomerId(), e.toEmail());
        audit.byCaller(e.organizationId(), "organization.ownership_transferred", newOwner, Map.of());
    }

    @EventListener
    void deleted(AccountEvent.OrganizationDeleted e) {
        audit.byCaller(
                e.organizationId(), "organization.deleted", organization(e.organizationId(), e.name()), Map.of());
    }

    private static Party organization(UUID id, String name) {
        return Party.of("organization", id, name);
    }

    private static Party invitation(UUID id, String email) {
        return Party.of("invitation", id, email);
    }
}
