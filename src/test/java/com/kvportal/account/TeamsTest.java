package com.kvportal.account;

import static com.kvportal.support.Problems.assertFieldErrors;
import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.Concurrently;
import com.kvportal.support.Inbox;
import com.kvportal.support.SignedInTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Organizations, members, roles and invitations (docs/teams.md), on the real stack. */
class TeamsTest extends SignedInTest {

    private static final String PASSWORD = "correct horse battery";

    private Api.Response invite(Api inviter, String email, String role) {
        return inviter.post("/api/v1/invitations", Map.of("email", email, "role", role));
    }

    private String invitationToken(String email) {
        return Inbox.token(new Inbox(baseUrl(), email).awaitMessage("You are invited"));
    }

    private List<String> organizationIds(Api api) {
        List<String> ids = new ArrayList<>();
        api.get("/api/v1/session")
                .json()
                .get("organizations")
                .forEach(o -> ids.add(o.get("id").asString()));
        return ids;
    }

    // --- session, organizations ---

    @Test
    void shouldListTheCustomersOrganizationsWithTheirRoleAndCreateMore() {
        JsonNode organizations = session.get("/api/v1/session").json().get("organizations");
        assertThat(organizations).hasSize(1);
        assertThat(organizations.get(0).get("id").asString())
                .isEqualTo(account.organizationId().toString());
        assertThat(organizations.get(0).get("role").asString()).isEqualTo("owner");

        Api.Response created = session.post("/api/v1/organizations", Map.of("name", "  Second  "));

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.json().get("name").asString()).isEqualTo("Second");
        assertThat(created.json().get("role").asString()).isEqualTo("owner");
        String projectId = created.json().get("project_id").asString();
        JsonNode view = session.get("/api/v1/session").json();
        assertThat(view.get("organizations")).hasSize(2);
        assertThat(view.get("projects")).hasSize(2);
        assertThat(view.get("organization_id").asString())
                .isEqualTo(account.organizationId().toString());
        Api.Response switched = session.put("/api/v1/session/project", Map.of("project_id", projectId));
        assertThat(switched.status()).as(switched.toString()).isEqualTo(200);
        assertThat(switched.json().get("organization_id").asString())
                .isEqualTo(created.json().get("id").asString());
        assertThat(count(
                        "select count(*) from audit_events where organization_id = ?::uuid and action = 'organization.created'",
                        created.json().get("id").asString()))
                .isEqualTo(1);
    }

    @Test
    void shouldRefuseTheTwentyFirstOrganizationACustomerWouldOwn() {
        session.verifyEmail();
        for (int i = 2; i <= 20; i++) { // the signup's organization is the first
            Api.Response created = session.post("/api/v1/organizations", Map.of("name", "Owned " + i));
            assertThat(created.status()).as(created.toString()).isEqualTo(201);
        }

        JsonNode refused = assertProblem(
                session.post("/api/v1/organizations", Map.of("name", "One too many")),
                409,
                "organization_limit_reached");

        assertThat(refused.get("detail").asString()).contains("20 organizations");
        assertThat(count("select count(*) from organizations where name = 'One too many'"))
                .isZero();
        assertThat(count(
                        "select count(*) from memberships where customer_id = ? and role = 'owner'",
                        account.customerId()))
                .isEqualTo(20);
        assertThat(session.get("/api/v1/session").json().get("organizations")).hasSize(20);
    }

    @Test
    void shouldRefuseAnOrganizationWithoutAName() {
        assertFieldErrors(session.post("/api/v1/organizations", Map.of("name", " ")), "name");
    }

    // --- the roles table on existing endpoints ---

    @Test
    void shouldLetAViewerReadButNotCreateKeysOrProjectsOrTouchBilling() {
        session.createKey("owner's key");
        Member viewer = join("viewer");

        assertThat(viewer.api().get("/api/v1/api-keys").status()).isEqualTo(200);
        assertThat(viewer.api().get("/api/v1/projects").status()).isEqualTo(200);
        assertThat(viewer.api().get("/api/v1/members").status()).isEqualTo(200);
        assertThat(viewer.api().get("/api/v1/audit-events").status()).isEqualTo(200);
        assertProblem(viewer.api().post("/api/v1/api-keys", Map.of("name", "mine")), 403, "insufficient_role");
        assertProblem(viewer.api().post("/api/v1/projects", Map.of("name", "mine")), 403, "insufficient_role");
        assertProblem(
                viewer.api().delete("/api/v1/api-keys/" + session.keyId("owner's key")), 403, "insufficient_role");
        assertProblem(viewer.api().post("/api/v1/billing/cancel"), 403, "insufficient_role");
        assertProblem(
                viewer.api().put("/api/v1/usage/limits", Map.of("alert_thresholds_percent", List.of())),
                403,
                "insufficient_role");
        assertProblem(invite(viewer.api(), "x@example.com", "viewer"), 403, "insufficient_role");
        assertThat(count("select count(*) from api_keys where project_id = ?", account.projectId()))
                .isEqualTo(1);
    }

    @Test
    void shouldLetDevelopersManageWebhookEndpointsAndViewersAndBillingOnlyReadThem() {
        Map<String, Object> endpoint = Map.of("url", "https://hooks.example.com/kv");
        Member viewer = join("viewer");
        Member billing = join("billing");
        Member developer = join("developer");

        String id = developer.api().createWebhookEndpoint(endpoint).id();
        for (Member reader : List.of(viewer, billing)) {
            assertThat(reader.api().get("/api/v1/webhook-endpoints").status()).isEqualTo(200);
            assertThat(reader.api()
                            .get("/api/v1/webhook-endpoints/" + id + "/deliveries")
                            .status())
                    .isEqualTo(200);
            assertProblem(reader.api().post("/api/v1/webhook-endpoints", endpoint), 403, "insufficient_role");
            assertProblem(reader.api().post("/api/v1/webhook-endpoints/" + id + "/test"), 403, "insufficient_role");
            assertProblem(reader.api().delete("/api/v1/webhook-endpoints/" + id), 403, "insufficient_role");
        }
        assertThat(count("select count(*) from webhook_endpoints where organization_id = ?", account.organizationId()))
                .isEqualTo(1);
    }

    @Test
    void shouldLetADeveloperManageKeysButNotBillingOrMembers() {
        Member developer = join("developer");

        assertThat(developer
                        .api()
                        .post("/api/v1/api-keys", Map.of("name", "dev"))
                        .status())
                .isEqualTo(201);
        assertProblem(developer.api().post("/api/v1/billing/portal"), 403, "insufficient_role");
        assertProblem(invite(developer.api(), "x@example.com", "viewer"), 403, "insufficient_role");
        assertProblem(
                developer.api().patch("/api/v1/members/" + account.customerId(), Map.of("role", "viewer")),
                403,
                "insufficient_role");
    }

    @Test
    void shouldLetBillingManageBillingButNotKeys() {
        Member billing = join("billing");

        assertProblem(billing.api().post("/api/v1/api-keys", Map.of("name", "b")), 403, "insufficient_role");
        Api.Response limits =
                billing.api().put("/api/v1/usage/limits", Map.of("alert_thresholds_percent", List.of(50)));
        assertThat(limits.status()).as(limits.toString()).isEqualTo(200);
    }

    @Test
    void shouldLetAnAdminKeyActAsAnAdminAndRefuseItOwnerOnlyCalls() {
        Member developer = join("developer");
        Api admin = Api.withKey(baseUrl(), session.createKey("automation", "admin"));

        assertThat(admin.get("/api/v1/members").status()).isEqualTo(200);
        Api.Response promoted = admin.patch("/api/v1/members/" + developer.customerId(), Map.of("role", "billing"));
        assertThat(promoted.status()).as(promoted.toString()).isEqualTo(200);
        assertThat(roleOf(developer.customerId())).isEqualTo("billing");
        assertProblem(
                admin.patch("/api/v1/members/" + developer.customerId(), Map.of("role", "owner")),
                403,
                "insufficient_role");
        assertProblem(admin.delete("/api/v1/members/" + account.customerId()), 403, "insufficient_role");
        assertProblem(
                admin.post(
                        "/api/v1/organization/transfer",
                        Map.of("customer_id", developer.customerId().toString(), "current_password", PASSWORD)),
                403,
                "insufficient_role");
        assertThat(sessionRole(admin)).isEqualTo("admin");
    }

    // --- members list ---

    @Test
    void shouldListMembersAndPendingInvitations() {
        Member viewer = join("viewer");
        invite(session, "pending@example.com", "billing");

        JsonNode list = viewer.api().get("/api/v1/members").json();

        assertThat(list.get("members")).hasSize(2);
        assertThat(list.get("members").get(0).get("customer_id").asString())
                .isEqualTo(account.customerId().toString());
        assertThat(list.get("members").get(0).get("role").asString()).isEqualTo("owner");
        assertThat(list.get("members").get(0).get("email").asString()).isEqualTo(account.email());
        assertThat(list.get("members").get(0).get("joined_at").asString()).endsWith("Z");
        assertThat(list.get("members").get(1).get("role").asString()).isEqualTo("viewer");
        JsonNode invitation = list.get("invitations").get(0);
        assertThat(list.get("invitations")).hasSize(1);
        assertThat(invitation.get("email").asString()).isEqualTo("pending@example.com");
        assertThat(invitation.get("role").asString()).isEqualTo("billing");
        assertThat(invitation.get("invited_by").asString())
                .isEqualTo(account.customerId().toString());
        assertThat(invitation.get("expires_at").asString()).endsWith("Z");
    }

    // --- invitations ---

    @Test
    void shouldInviteReplaceAndRevoke() {
        Api.Response first = invite(session, "bob@example.com", "developer");
        assertThat(first.status()).as(first.toString()).isEqualTo(201);
        String firstToken = invitationToken("bob@example.com");

        Api.Response second = invite(session, "BOB@example.com", "viewer");
        assertThat(second.status()).isEqualTo(201);
        assertThat(second.json().get("id").asString())
                .isNotEqualTo(first.json().get("id").asString());
        assertThat(session.get("/api/v1/members").json().get("invitations")).hasSize(1);
        Api bob = api();
        assertProblem(
                bob.post(
                        "/api/v1/auth/signup",
                        Map.of("email", "bob@example.com", "password", PASSWORD, "invitation_token", firstToken)),
                400,
                "token_invalid");

        String id = second.json().get("id").asString();
        assertThat(session.delete("/api/v1/invitations/" + id).status()).isEqualTo(204);
        assertProblem(session.delete("/api/v1/invitations/" + id), 404, "invitation_not_found");
        assertThat(session.get("/api/v1/members").json().get("invitations")).isEmpty();
        assertThat(count(
                        "select count(*) from audit_events where organization_id = ? and action in"
                                + " ('member.invited', 'member.invitation_revoked')",
                        account.organizationId()))
                .isEqualTo(3);
    }

    @Test
    void shouldRefuseBadInvitations() {
        Member member = join("viewer");
        assertProblem(invite(session, member.email().toUpperCase(), "admin"), 409, "already_member");
        assertProblem(invite(session, account.email(), "admin"), 409, "already_member");
        assertFieldErrors(invite(session, "carol@example.com", "owner"), "role");
        assertFieldErrors(invite(session, "not an address", "viewer"), "email");
        assertThat(count("select count(*) from invitations where organization_id = ?", account.organizationId()))
                .isZero();
    }

    @Test
    void shouldRefuseTheHundredAndFirstMemberOrInvitation() {
        // 90 pending invitations written as they are stored (more than an hour's invitation mails may invite)
        jdbc.sql(
                        """
                        insert into invitations (id, organization_id, email, role, invited_by, digest, expires_at)
                        select gen_random_uuid(), ?, 'seeded' || n || '@example.com', 'viewer', ?,
                               sha256(gen_random_uuid()::text::bytea), now() + interval '7 days'
                        from generate_series(1, 90) n""")
                .params(account.organizationId(), account.customerId())
                .update();
        for (int i = 0; i < 9; i++) { // the owner is the first member
            assertThat(invite(session, "n" + i + "@example.com", "viewer").status())
                    .isEqualTo(201);
        }
        assertProblem(invite(session, "one-too-many@example.com", "viewer"), 409, "member_limit_reached");
        // inviting a pending address again replaces its invitation: no new place taken
        assertThat(invite(session, "n0@example.com", "developer").status()).isEqualTo(201);
        assertThat(count("select count(*) from invitations where organization_id = ?", account.organizationId()))
                .isEqualTo(99);
    }

    @Test
    void shouldAcceptAnInvitationOnlyForTheVerifiedInvitedAddress() {
        Api existing = api();
        Api.Account other = existing.signupUnverified();
        invite(session, other.email(), "developer");
        String token = invitationToken(other.email());

        // not verified yet
        assertProblem(
                existing.post("/api/v1/invitations/accept", Map.of("token", token)), 403, "invitation_email_mismatch");
        Api stranger = signedUp();
        stranger.verifyEmail();
        assertProblem(
                stranger.post("/api/v1/invitations/accept", Map.of("token", token)), 403, "invitation_email_mismatch");
        assertProblem(existing.post("/api/v1/invitations/accept", Map.of("token", "nope")), 400, "token_invalid");

        existing.verifyEmail();
        Api.Response accepted = existing.post("/api/v1/invitations/accept", Map.of("token", token));

        assertThat(accepted.status()).as(accepted.toString()).isEqualTo(200);
        assertThat(accepted.json().get("organization_id").asString())
                .isEqualTo(account.organizationId().toString());
        assertThat(accepted.json().get("role").asString()).isEqualTo("developer");
        assertThat(organizationIds(existing)).contains(account.organizationId().toString());
        assertProblem(existing.post("/api/v1/invitations/accept", Map.of("token", token)), 400, "token_invalid");
        assertThat(count(
                        "select count(*) from audit_events where organization_id = ? and action = 'member.joined'",
                        account.organizationId()))
                .isEqualTo(1);
    }

    @Test
    void shouldRefuseASignupWithAnInvitationForAnotherAddress() {
        invite(session, "dan@example.com", "viewer");
        String token = invitationToken("dan@example.com");

        assertProblem(
                api().post(
                                "/api/v1/auth/signup",
                                Map.of("email", "eve@example.com", "password", PASSWORD, "invitation_token", token)),
                403,
                "invitation_email_mismatch");
        assertProblem(
                api().post(
                                "/api/v1/auth/signup",
                                Map.of("email", "dan@example.com", "password", PASSWORD, "invitation_token", "x")),
                400,
                "token_invalid");
        assertThat(count("select count(*) from customers where lower(email) in ('eve@example.com', 'dan@example.com')"))
                .isZero();
    }

    @Test
    void shouldSignUpFromAnInvitationIntoThatOrganizationVerified() {
        Member member = join("billing");

        JsonNode view = member.api().get("/api/v1/session").json();
        assertThat(view.get("email_verified").asBoolean()).isTrue();
        assertThat(view.get("organizations")).hasSize(1);
        assertThat(view.get("organizations").get(0).get("role").asString()).isEqualTo("billing");
        assertThat(view.get("project_id").asString())
                .isEqualTo(account.projectId().toString());
        assertThat(new Inbox(baseUrl(), member.email()).count("Confirm your email address"))
                .isZero();
    }

    // --- roles, removal, leaving, last owner ---

    @Test
    void shouldChangeRolesWithinTheRules() {
        Member admin = join("admin");
        Member developer = join("developer");

        Api.Response changed = admin.api().patch("/api/v1/members/" + developer.customerId(), Map.of("role", "viewer"));
        assertThat(changed.status()).as(changed.toString()).isEqualTo(200);
        assertThat(changed.json().get("role").asString()).isEqualTo("viewer");
        assertThat(changed.json().get("customer_id").asString())
                .isEqualTo(developer.customerId().toString());
        assertProblem(
                admin.api().patch("/api/v1/members/" + account.customerId(), Map.of("role", "viewer")),
                403,
                "insufficient_role");
        assertProblem(
                admin.api().patch("/api/v1/members/" + developer.customerId(), Map.of("role", "owner")),
                403,
                "insufficient_role");
        assertProblem(
                session.patch("/api/v1/members/" + account.customerId(), Map.of("role", "admin")), 409, "last_owner");
        assertProblem(
                session.patch("/api/v1/members/" + UUID.randomUUID(), Map.of("role", "admin")),
                404,
                "member_not_found");
        assertFieldErrors(session.patch("/api/v1/members/" + developer.customerId(), Map.of("role", "root")), "role");

        assertThat(session.patch("/api/v1/members/" + admin.customerId(), Map.of("role", "owner"))
                        .status())
                .isEqualTo(200);
        assertThat(session.patch("/api/v1/members/" + account.customerId(), Map.of("role", "viewer"))
                        .status())
                .isEqualTo(200);
        assertThat(roleOf(account.customerId())).isEqualTo("viewer");
        assertThat(roleOf(admin.customerId())).isEqualTo("owner");
        // the demotion holds on the very next request
        assertProblem(session.post("/api/v1/api-keys", Map.of("name", "k")), 403, "insufficient_role");
    }

    @Test
    void shouldRemoveAMemberWhoseNextCallIsRefused() {
        Member developer = join("developer");
        String key = developer.api().createKey("made by the developer");
        assertThat(developer.api().get("/api/v1/api-keys").status()).isEqualTo(200);

        assertThat(session.delete("/api/v1/members/" + developer.customerId()).status())
                .isEqualTo(204);

        assertProblem(developer.api().get("/api/v1/api-keys"), 403, "insufficient_role");
        // what the ex-member does for their own account lands in no log of the organization they left
        assertThat(developer.api().delete("/api/v1/account/sessions").status()).isEqualTo(204);
        assertThat(count(
                        "select count(*) from audit_events where organization_id = ? and action = 'customer.session_ended'",
                        account.organizationId()))
                .isZero();
        JsonNode view = developer.api().get("/api/v1/session").json();
        assertThat(view.get("organizations")).isEmpty();
        assertThat(view.get("projects")).isEmpty();
        assertThat(view.get("project_id").isNull()).isTrue();
        assertThat(new Inbox(baseUrl(), developer.email()).awaitMessage("You were removed"))
                .isNotNull();
        // the developer's key stays with its project
        assertThat(Api.withKey(baseUrl(), key).post("/api/v1/api-keys/verify").status())
                .isEqualTo(200);
        assertProblem(session.delete("/api/v1/members/" + developer.customerId()), 404, "member_not_found");
        // and a login still works, into no organization
        Api again = api();
        assertThat(again.post("/api/v1/auth/login", Map.of("email", developer.email(), "password", PASSWORD))
                        .status())
                .isEqualTo(200);
        assertThat(again.get("/api/v1/session").json().get("organizations")).isEmpty();
        assertThat(count(
                        "select count(*) from audit_events where organization_id = ? and action = 'member.removed'",
                        account.organizationId()))
                .isEqualTo(1);
    }

    @Test
    void shouldLetAMemberLeaveButNotTheLastOwner() {
        Member viewer = join("viewer");
        Api otherOrganization = viewer.api();
        otherOrganization.post("/api/v1/organizations", Map.of("name", "Viewer's own"));

        assertThat(viewer.api().delete("/api/v1/members/" + viewer.customerId()).status())
                .isEqualTo(204);

        assertThat(organizationIds(viewer.api()))
                .doesNotContain(account.organizationId().toString())
                .hasSize(1);
        assertThat(viewer.api().get("/api/v1/session").json().get("project_id").isNull())
                .isFalse();
        assertProblem(session.delete("/api/v1/members/" + account.customerId()), 409, "last_owner");
        assertThat(count(
                        "select count(*) from audit_events where organization_id = ? and action = 'member.left'",
                        account.organizationId()))
                .isEqualTo(1);
    }

    @Test
    void shouldLetOnlyAnOwnerRemoveAnOwner() {
        Member admin = join("admin");
        Member coOwner = join("admin");
        session.patch("/api/v1/members/" + coOwner.customerId(), Map.of("role", "owner"));

        assertProblem(admin.api().delete("/api/v1/members/" + coOwner.customerId()), 403, "insufficient_role");
        assertThat(coOwner.api()
                        .delete("/api/v1/members/" + account.customerId())
                        .status())
                .isEqualTo(204);
        assertThat(roleOf(account.customerId())).isEqualTo("none");
        // the payment provider's customer now stands for a remaining owner, not the one who was removed
        assertThat(single(UUID.class, "select owner_id from organizations where id = ?", account.organizationId()))
                .isEqualTo(coOwner.customerId());
    }

    // --- races ---

    @Test
    void shouldLetOnlyOneOfTwoAdminsRemovingEachOtherSucceed() throws Exception {
        for (int trial = 0; trial < 5; trial++) {
            Member a = join("admin");
            Member b = join("admin");
            List<Integer> statuses = Concurrently.run(2, new java.util.concurrent.Callable<>() {
                private final java.util.concurrent.atomic.AtomicInteger next =
                        new java.util.concurrent.atomic.AtomicInteger();

                @Override
                public Integer call() {
                    return next.getAndIncrement() == 0
                            ? a.api()
                                    .delete("/api/v1/members/" + b.customerId())
                                    .status()
                            : b.api()
                                    .delete("/api/v1/members/" + a.customerId())
                                    .status();
                }
            });
            assertThat(statuses).containsExactlyInAnyOrder(204, 403);
            assertThat(List.of(roleOf(a.customerId()), roleOf(b.customerId())))
                    .containsExactlyInAnyOrder("admin", "none");
        }
    }

    @Test
    void shouldNeverLetTheLastTwoOwnersDemoteEachOther() throws Exception {
        for (int trial = 0; trial < 5; trial++) {
            Member a = join("admin");
            Member b = join("admin");
            session.patch("/api/v1/members/" + a.customerId(), Map.of("role", "owner"));
            session.patch("/api/v1/members/" + b.customerId(), Map.of("role", "owner"));
            assertThat(session.patch("/api/v1/members/" + account.customerId(), Map.of("role", "viewer"))
                            .status())
                    .isEqualTo(200);
            java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
            List<Integer> statuses = Concurrently.run(
                    2,
                    () -> next.getAndIncrement() == 0
                            ? a.api()
                                    .patch("/api/v1/members/" + b.customerId(), Map.of("role", "admin"))
                                    .status()
                            : b.api()
                                    .patch("/api/v1/members/" + a.customerId(), Map.of("role", "admin"))
                                    .status());

            // the first one decided demotes the other, whose own demotion then finds it no longer owner
            assertThat(statuses).containsExactlyInAnyOrder(200, 403);
            assertThat(count(
                            "select count(*) from memberships where organization_id = ? and role = 'owner'",
                            account.organizationId()))
                    .isEqualTo(1);
            Api remaining = roleOf(a.customerId()).equals("owner") ? a.api() : b.api();
            remaining.patch("/api/v1/members/" + account.customerId(), Map.of("role", "owner"));
            assertThat(session.delete("/api/v1/members/" + a.customerId()).status())
                    .isEqualTo(204);
            assertThat(session.delete("/api/v1/members/" + b.customerId()).status())
                    .isEqualTo(204);
        }
    }

    @Test
    void shouldJoinOnceWhenTheSameInvitationIsAcceptedTwiceAtOnce() throws Exception {
        Api invitee = api();
        Api.Account other = invitee.signup();
        invitee.verifyEmail();
        invite(session, other.email(), "developer");
        String token = invitationToken(other.email());

        List<Integer> statuses =
                Concurrently.run(4, () -> invitee.post("/api/v1/invitations/accept", Map.of("token", token))
                        .status());

        assertThat(statuses).containsOnlyOnce(200).containsOnly(200, 400);
        assertThat(count(
                        "select count(*) from memberships where organization_id = ? and customer_id = ?",
                        account.organizationId(),
                        other.customerId()))
                .isEqualTo(1);
    }

    // --- transfer and delete ---

    @Test
    void shouldTransferTheOwnership() {
        Member admin = join("admin");
        Map<String, Object> wrong =
                Map.of("customer_id", admin.customerId().toString(), "current_password", "not the password");
        assertProblem(session.post("/api/v1/organization/transfer", wrong), 403, "reauthentication_failed");
        assertProblem(
                session.post(
                        "/api/v1/organization/transfer",
                        Map.of("customer_id", UUID.randomUUID().toString(), "current_password", PASSWORD)),
                404,
                "member_not_found");
        assertProblem(
                admin.api()
                        .post(
                                "/api/v1/organization/transfer",
                                Map.of("customer_id", admin.customerId().toString(), "current_password", PASSWORD)),
                403,
                "insufficient_role");

        Api.Response transferred = session.post(
                "/api/v1/organization/transfer",
                Map.of("customer_id", admin.customerId().toString(), "current_password", PASSWORD));

        assertThat(transferred.status()).as(transferred.toString()).isEqualTo(200);
        assertThat(roleOf(admin.customerId())).isEqualTo("owner");
        assertThat(roleOf(account.customerId())).isEqualTo("admin");
        assertThat(new Inbox(baseUrl(), admin.email()).awaitMessage("You are now the owner"))
                .isNotNull();
        assertThat(jdbc.sql("select actor_id || ' -> ' || target_id from audit_events where organization_id = ?"
                                + " and action = 'organization.ownership_transferred'")
                        .param(account.organizationId())
                        .query(String.class)
                        .list())
                .as("one line: the owner who handed it on, and the new owner")
                .containsExactly(account.customerId() + " -> " + admin.customerId());
    }

    @Test
    void shouldDeleteTheOrganizationAndEveryKey() {
        Member developer = join("developer");
        String key = session.createKey("live");
        String developersKey = developer.api().createKey("the developer's");
        invite(session, "pending@example.com", "viewer");
        String name = session.get("/api/v1/session")
                .json()
                .get("organizations")
                .get(0)
                .get("name")
                .asString();

        assertFieldErrors(
                session.delete("/api/v1/organization", Map.of("name", "wrong", "current_password", PASSWORD)), "name");
        assertProblem(
                session.delete("/api/v1/organization", Map.of("name", name, "current_password", "wrong one")),
                403,
                "reauthentication_failed");
        assertProblem(
                developer.api().delete("/api/v1/organization", Map.of("name", name, "current_password", PASSWORD)),
                403,
                "insufficient_role");

        Api.Response deleted =
                session.delete("/api/v1/organization", Map.of("name", name, "current_password", PASSWORD));

        assertThat(deleted.status()).as(deleted.toString()).isEqualTo(202);
        for (String gone : List.of(key, developersKey)) {
            assertProblem(Api.withKey(baseUrl(), gone).post("/api/v1/api-keys/verify"), 401, "api_key_revoked");
        }
        assertThat(session.get("/api/v1/session").json().get("organizations")).isEmpty();
        assertThat(developer.api().get("/api/v1/session").json().get("organizations"))
                .isEmpty();
        assertProblem(developer.api().get("/api/v1/api-keys"), 403, "insufficient_role");
        assertThat(count("select count(*) from invitations where organization_id = ?", account.organizationId()))
                .isZero();
        assertThat(count(
                        "select count(*) from audit_events where organization_id = ? and action = 'organization.deleted'",
                        account.organizationId()))
                .isEqualTo(1);
    }
}
