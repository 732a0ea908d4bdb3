package com.kvportal.account.teams;

import com.kvportal.security.Role;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

record MemberList(List<MemberView> members, List<InvitationView> invitations) {

    record MemberView(UUID customerId, String email, Role role, Instant joinedAt) {
        static MemberView of(Members.Member m) {
            return new MemberView(m.customerId(), m.email(), m.role(), m.joinedAt());
        }
    }

    record InvitationView(
            UUID id,
            String email,
            Role role,
            @Schema(description = "The customer id of who invited.") UUID invitedBy,
            Instant createdAt,
            Instant expiresAt) {
        static InvitationView of(Invitations.Invitation i) {
            return new InvitationView(i.id(), i.email(), i.role(), i.invitedBy(), i.createdAt(), i.expiresAt());
        }
    }
}
