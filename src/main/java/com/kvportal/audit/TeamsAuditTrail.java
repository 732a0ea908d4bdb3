package com.kvportal.audit;

import com.kvportal.account.AccountEvent;
import com.kvportal.audit.AuditEvent.Party;
import java.util.Map;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Audit lines for organizations and their members (contract section 13). Synchronous, in the change's transaction;
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
                new Party("organization", e.organizationId().toString(), e.name()),
                e.projectId(),
                Map.of());
    }

    @EventListener
    void invited(AccountEvent.MemberInvited e) {
        audit.record(
                e.organizationId(),
                "member.invited",
                audit.actorOr(AuditLog.SYSTEM),
                new Party("invitation", e.invitationId().toString(), e.email()),
                null,
                Map.of("role", e.role()));
    }

    @EventListener
    void invitationRevoked(AccountEvent.InvitationRevoked e) {
        audit.record(
                e.organizationId(),
                "member.invitation_revoked",
                audit.actorOr(AuditLog.SYSTEM),
                new Party("invitation", e.invitationId().toString(), e.email()),
                null,
                Map.of());
    }

    @EventListener
    void joined(AccountEvent.MemberJoined e) {
        Party member = member(e.customerId(), e.email());
        audit.record(e.organizationId(), "member.joined", member, member, null, Map.of("role", e.role()));
    }

    @EventListener
    void roleChanged(AccountEvent.RoleChanged e) {
        audit.record(
                e.organizationId(),
                "member.role_changed",
                audit.actorOr(AuditLog.SYSTEM),
                member(e.customerId(), e.email()),
                null,
                Map.of("previous_role", e.previousRole(), "role", e.role()));
    }

    @EventListener
    void removed(AccountEvent.MemberRemoved e) {
        audit.record(
                e.organizationId(),
                "member.removed",
                audit.actorOr(AuditLog.SYSTEM),
                member(e.customerId(), e.email()),
                null,
                Map.of("role", e.role()));
    }

    @EventListener
    void left(AccountEvent.MemberLeft e) {
        Party member = member(e.customerId(), e.email());
        audit.record(e.organizationId(), "member.left", member, member, null, Map.of("role", e.role()));
    }

    @EventListener
    void ownershipTransferred(AccountEvent.OwnershipTransferred e) {
        audit.record(
                e.organizationId(),
                "organization.ownership_transferred",
                audit.actorOr(audit.customer(e.fromCustomerId())),
                member(e.toCustomerId(), e.toEmail()),
                null,
                Map.of());
    }

    @EventListener
    void deleted(AccountEvent.OrganizationDeleted e) {
        audit.record(
                e.organizationId(),
                "organization.deleted",
                audit.actorOr(AuditLog.SYSTEM),
                new Party("organization", e.organizationId().toString(), e.name()),
                null,
                Map.of());
    }

    private static Party member(UUID id, String email) {
        return new Party("customer", id.toString(), email);
    }
}
