package com.kvportal.account.teams;

import com.kvportal.account.AccountProblem;
import com.kvportal.common.web.CommonProblem;
import com.kvportal.common.web.PathIds;
import com.kvportal.security.ApiContract;
import com.kvportal.security.Caller;
import com.kvportal.security.Credential;
import com.kvportal.security.Permission;
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

/** Organizations, members, roles and invitations (docs/teams.md). */
@RestController
@Tag(
        name = "Teams",
        description = "Organizations, their members and roles, invitations, ownership transfer and deletion.")
@RequiredArgsConstructor
class TeamsController {

    /** A member is named by the customer's id. */
    private static final String MEMBER_ID = "The member's customer id.";

    private final Teams teams;

    @ApiContract(
            success = HttpStatus.CREATED,
            credentials = Credential.PORTAL,
            permission = Permission.SIGNED_IN,
            verifiedEmail = true)
    @AccountProblem.Codes({AccountProblem.SESSION_REQUIRED, AccountProblem.ORGANIZATION_LIMIT_REACHED})
    @PostMapping(path = "/api/v1/organizations", consumes = MediaType.APPLICATION_JSON_VALUE)
    CreatedOrganization createOrganization(Caller caller, @Valid @RequestBody NewOrganization body) {
        return teams.createOrganization(caller, body);
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.READ)
    @GetMapping("/api/v1/members")
    MemberList listMembers(Caller caller) {
        return teams.members(caller);
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.MANAGE_MEMBERS)
    @AccountProblem.Codes({AccountProblem.MEMBER_NOT_FOUND, AccountProblem.LAST_OWNER})
    @PatchMapping(path = "/api/v1/members/" + PathIds.ID, consumes = MediaType.APPLICATION_JSON_VALUE)
    MemberList.MemberView changeMemberRole(
            Caller caller,
            @PathVariable @Parameter(description = MEMBER_ID) UUID id,
            @Valid @RequestBody RoleChange body) {
        return teams.changeRole(caller, id, body);
    }

    @ApiContract(success = HttpStatus.NO_CONTENT, credentials = Credential.PORTAL, permission = Permission.READ)
    @AccountProblem.Codes({AccountProblem.MEMBER_NOT_FOUND, AccountProblem.LAST_OWNER})
    @DeleteMapping("/api/v1/members/" + PathIds.ID)
    void removeMember(Caller caller, @PathVariable @Parameter(description = MEMBER_ID) UUID id) {
        teams.remove(caller, id);
    }

    @ApiContract(
            success = HttpStatus.CREATED,
            credentials = Credential.PORTAL,
            permission = Permission.MANAGE_MEMBERS,
            verifiedEmail = true)
    @AccountProblem.Codes({AccountProblem.ALREADY_MEMBER, AccountProblem.MEMBER_LIMIT_REACHED})
    @CommonProblem.Codes(CommonProblem.TOO_MANY_REQUESTS)
    @PostMapping(path = "/api/v1/invitations", consumes = MediaType.APPLICATION_JSON_VALUE)
    MemberList.InvitationView inviteMember(Caller caller, @Valid @RequestBody NewInvitation body) {
        return teams.invite(caller, body);
    }

    @ApiContract(
            success = HttpStatus.NO_CONTENT,
            credentials = Credential.PORTAL,
            permission = Permission.MANAGE_MEMBERS)
    @AccountProblem.Codes({AccountProblem.INVITATION_NOT_FOUND})
    @DeleteMapping("/api/v1/invitations/" + PathIds.ID)
    void revokeInvitation(Caller caller, @PathVariable @Parameter(description = "The invitation's id.") UUID id) {
        teams.revokeInvitation(caller, id);
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.SIGNED_IN)
    @AccountProblem.Codes({
        AccountProblem.TOKEN_INVALID,
        AccountProblem.INVITATION_EMAIL_MISMATCH,
        AccountProblem.SESSION_REQUIRED
    })
    @PostMapping(path = "/api/v1/invitations/accept", consumes = MediaType.APPLICATION_JSON_VALUE)
    Joined acceptInvitation(Caller caller, @Valid @RequestBody Acceptance body) {
        return teams.accept(caller, body);
    }

    @ApiContract(
            credentials = Credential.PORTAL,
            permission = Permission.MANAGE_ORGANIZATION,
            successDescription = "The members, as GET /api/v1/members answers.")
    @AccountProblem.Codes(AccountProblem.MEMBER_NOT_FOUND)
    @AccountProblem.Reauthenticates
    @PostMapping(path = "/api/v1/organization/transfer", consumes = MediaType.APPLICATION_JSON_VALUE)
    MemberList transferOwnership(Caller caller, @Valid @RequestBody Transfer body) {
        teams.transfer(caller, body);
        return teams.members(caller);
    }

    @ApiContract(
            success = HttpStatus.ACCEPTED,
            credentials = Credential.PORTAL,
            permission = Permission.MANAGE_ORGANIZATION)
    @AccountProblem.Reauthenticates
    @CommonProblem.Codes(CommonProblem.PAYMENT_PROVIDER_UNAVAILABLE)
    @DeleteMapping(path = "/api/v1/organization", consumes = MediaType.APPLICATION_JSON_VALUE)
    Deleted deleteOrganization(Caller caller, @Valid @RequestBody Deletion body) {
        return teams.delete(caller, body);
    }
}
