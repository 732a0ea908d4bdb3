package com.kvportal.account;

import com.kvportal.common.openapi.ApiContract;
import com.kvportal.common.openapi.Credential;
import com.kvportal.common.openapi.Permission;
import com.kvportal.common.web.CommonProblem;
import com.kvportal.common.web.PathIds;
import com.kvportal.security.Caller;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** Organizations, members, roles and invitations (contract section 13). */
@RestController
@Tag(
        name = "Teams",
        description = "Organizations, their members and roles, invitations, ownership transfer and deletion.")
@RequiredArgsConstructor
class TeamsController {

    /** A member is named by the customer's id. */
    private static final String MEMBER_ID = "The member's customer id.";

    private final Teams teams;

    @Operation(
            operationId = "createOrganization",
            summary = "Create an organization",
            description = "A new organization owned by the signed-in customer, with a \"Default project\". The"
                    + " session's active project stays; switch to the new one with PUT /api/v1/session/project.")
    @ApiContract(success = HttpStatus.CREATED, credentials = Credential.PORTAL, permission = Permission.SIGNED_IN)
    @AccountProblem.Codes({AccountProblem.SESSION_REQUIRED})
    @PostMapping(path = "/api/v1/organizations", consumes = MediaType.APPLICATION_JSON_VALUE)
    Teams.CreatedOrganization createOrganization(Caller caller, @Valid @RequestBody Teams.NewOrganization body) {
        return teams.createOrganization(caller, body);
    }

    @Operation(
            operationId = "listMembers",
            summary = "List the members",
            description = "The members of the current organization and its pending invitations.")
    @ApiContract(credentials = Credential.PORTAL, permission = Permission.READ)
    @GetMapping("/api/v1/members")
    Teams.MemberList members(Caller caller) {
        return teams.members(caller);
    }

    @Operation(
            operationId = "changeMemberRole",
            summary = "Change a member's role",
            description = "Only an owner may make a member owner or change an owner's role; the last owner cannot be"
                    + " demoted (409 `last_owner`).")
    @ApiContract(credentials = Credential.PORTAL, permission = Permission.MANAGE_MEMBERS)
    @AccountProblem.Codes({AccountProblem.MEMBER_NOT_FOUND, AccountProblem.LAST_OWNER})
    @PatchMapping(path = "/api/v1/members/" + PathIds.ID, consumes = MediaType.APPLICATION_JSON_VALUE)
    Teams.MemberView changeRole(
            Caller caller,
            @PathVariable @Parameter(description = MEMBER_ID) UUID id,
            @Valid @RequestBody Teams.RoleChange body) {
        return teams.changeRole(caller, id, body);
    }

    @Operation(
            operationId = "removeMember",
            summary = "Remove a member, or leave",
            description = "Removes a member of the current organization (owner, admin; an owner only by an owner) and"
                    + " mails them; with the caller's own id, any member leaves. The last owner cannot be removed or"
                    + " leave (409 `last_owner`). Keys the member created stay with their projects.")
    @ApiContract(success = HttpStatus.NO_CONTENT, credentials = Credential.PORTAL, permission = Permission.READ)
    @AccountProblem.Codes({AccountProblem.MEMBER_NOT_FOUND, AccountProblem.LAST_OWNER})
    @DeleteMapping("/api/v1/members/" + PathIds.ID)
    void remove(Caller caller, @PathVariable @Parameter(description = MEMBER_ID) UUID id) {
        teams.remove(caller, id);
    }

    @Operation(
            operationId = "inviteMember",
            summary = "Invite a member",
            description = "Mails a link (7 days) to join the current organization with the role. Inviting a pending"
                    + " address again replaces its invitation (the old link stops working). At most 100 members and"
                    + " pending invitations.")
    @ApiContract(success = HttpStatus.CREATED, credentials = Credential.PORTAL, permission = Permission.MANAGE_MEMBERS)
    @AccountProblem.Codes({AccountProblem.ALREADY_MEMBER, AccountProblem.MEMBER_LIMIT_REACHED})
    @PostMapping(path = "/api/v1/invitations", consumes = MediaType.APPLICATION_JSON_VALUE)
    Teams.InvitationView invite(Caller caller, @Valid @RequestBody Teams.NewInvitation body) {
        return teams.invite(caller, body);
    }

    @Operation(
            operationId = "revokeInvitation",
            summary = "Revoke an invitation",
            description = "Its link stops working.")
    @ApiContract(
            success = HttpStatus.NO_CONTENT,
            credentials = Credential.PORTAL,
            permission = Permission.MANAGE_MEMBERS)
    @AccountProblem.Codes({AccountProblem.INVITATION_NOT_FOUND})
    @DeleteMapping("/api/v1/invitations/" + PathIds.ID)
    void revokeInvitation(Caller caller, @PathVariable @Parameter(description = "The invitation's id.") UUID id) {
        teams.revokeInvitation(caller, id);
    }

    @Operation(
            operationId = "acceptInvitation",
            summary = "Accept an invitation",
            description = "The signed-in customer joins the invitation's organization; the session's verified address"
                    + " must be the invited one (case-insensitive).")
    @ApiContract(credentials = Credential.PORTAL, permission = Permission.SIGNED_IN)
    @AccountProblem.Codes({
        AccountProblem.TOKEN_INVALID,
        AccountProblem.INVITATION_EMAIL_MISMATCH,
        AccountProblem.SESSION_REQUIRED
    })
    @PostMapping(path = "/api/v1/invitations/accept", consumes = MediaType.APPLICATION_JSON_VALUE)
    Teams.Joined accept(Caller caller, @Valid @RequestBody Teams.Acceptance body) {
        return teams.accept(caller, body);
    }

    @Operation(
            operationId = "transferOwnership",
            summary = "Transfer the ownership",
            description = "The member becomes owner and the caller admin; needs the caller's current password.")
    @ApiContract(
            credentials = Credential.PORTAL,
            permission = Permission.MANAGE_ORGANIZATION,
            successDescription = "The members, as GET /api/v1/members answers.")
    @AccountProblem.Codes({
        AccountProblem.MEMBER_NOT_FOUND,
        AccountProblem.REAUTHENTICATION_FAILED,
        AccountProblem.TOO_MANY_ATTEMPTS,
        AccountProblem.SESSION_REQUIRED
    })
    @PostMapping(path = "/api/v1/organization/transfer", consumes = MediaType.APPLICATION_JSON_VALUE)
    Teams.MemberList transfer(Caller caller, @Valid @RequestBody Teams.Transfer body) {
        teams.transfer(caller, body);
        return teams.members(caller);
    }

    @Operation(
            operationId = "deleteOrganization",
            summary = "Delete the organization",
            description = "Cancels the subscription at once, revokes every key of every project on every instance"
                    + " before answering, removes the members and invitations; invoices and the audit log stay."
                    + " `name` must repeat the organization's name; needs the caller's current password.")
    @ApiContract(
            success = HttpStatus.ACCEPTED,
            credentials = Credential.PORTAL,
            permission = Permission.MANAGE_ORGANIZATION)
    @AccountProblem.Codes({
        AccountProblem.REAUTHENTICATION_FAILED,
        AccountProblem.TOO_MANY_ATTEMPTS,
        AccountProblem.SESSION_REQUIRED
    })
    @CommonProblem.Codes(CommonProblem.PAYMENT_PROVIDER_UNAVAILABLE)
    @DeleteMapping(path = "/api/v1/organization", consumes = MediaType.APPLICATION_JSON_VALUE)
    Teams.Deleted delete(Caller caller, @Valid @RequestBody Teams.Deletion body) {
        return teams.delete(caller, body);
    }
}
