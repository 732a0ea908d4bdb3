package com.kvportal.account;

import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.kvportal.support.Api;
import com.kvportal.support.Inbox;
import com.kvportal.support.SignedInTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Nobody can make the service mail people who did not ask: invitation mails per organization and per invited address,
 * and links to a new address per customer, are counted in the database, and a request beyond a quota is refused
 * before anything is written or queued.
 */
class MailRelayTest extends SignedInTest {

    private static final String PASSWORD = "correct horse battery";
    private static final String INVITED = "You are invited";

    @BeforeEach
    void verifyTheAddress() {
        session.verifyEmail();
    }

    private static Api.Response invite(Api inviter, String email) {
        return inviter.post("/api/v1/invitations", Map.of("email", email, "role", "viewer"));
    }

    private long queuedTo(String email) {
        return count("select count(*) from mail_outbox where lower(recipient) = lower(?)", email);
    }

    private static void assertRefusedWithRetryAfter(Api.Response response, long atMostSeconds) {
        JsonNode problem = assertProblem(response, 429, "too_many_requests");
        assertThat(problem.get("detail").asString()).contains("Try again in");
        assertThat(response.header("Retry-After")).isNotNull();
        assertThat(Long.parseLong(response.header("Retry-After"))).isBetween(1L, atMostSeconds);
    }

    @Test
    void shouldMailOneAddressAtMostThreeInvitationsADayReInvitationsIncluded() {
        String target = "target-" + UUID.randomUUID() + "@example.com";
        List<Api.Response> answers = new ArrayList<>();

        for (int i = 0; i < 10; i++) {
            answers.add(invite(session, i % 2 == 0 ? target : target.toUpperCase()));
        }

        for (int i = 0; i < 3; i++) {
            assertThat(answers.get(i).status()).as(answers.get(i).toString()).isEqualTo(201);
        }
        for (int i = 3; i < 10; i++) {
            assertRefusedWithRetryAfter(answers.get(i), 24 * 3600);
        }
        Inbox inbox = new Inbox(baseUrl(), target);
        await().until(() -> inbox.count(INVITED) == 3);
        assertThat(queuedTo(target)).isEqualTo(3);
        // the refusals left the third invitation as it was: its link still works
        assertThat(single(
                        String.class,
                        "select id::text from invitations where organization_id = ? and lower(email) = lower(?)",
                        account.organizationId(),
                        target))
                .isEqualTo(answers.get(2).json().get("id").asString());

        // the quota is the address's, whichever organization invites
        Api other = api();
        other.signup();
        other.verifyEmail();
        assertRefusedWithRetryAfter(invite(other, target), 24 * 3600);
        assertThat(queuedTo(target)).isEqualTo(3);
        assertThat(count("select count(*) from invitations where lower(email) = lower(?)", target))
                .isEqualTo(1);
    }

    @Test
    void shouldSendAtMostTwentyInvitationMailsPerOrganizationAnHour() {
        String prefix = "crowd-" + UUID.randomUUID();
        for (int i = 0; i < 20; i++) {
            Api.Response invited = invite(session, prefix + "-" + i + "@example.com");
            assertThat(invited.status()).as(invited.toString()).isEqualTo(201);
        }
        String twentyFirst = prefix + "-20@example.com";

        Api.Response refused = invite(session, twentyFirst);

        assertRefusedWithRetryAfter(refused, 3600);
        new Inbox(baseUrl(), prefix + "-19@example.com").awaitMessage(INVITED);
        assertThat(queuedTo(twentyFirst)).isZero();
        assertThat(new Inbox(baseUrl(), twentyFirst).messages()).isEmpty();
        assertThat(count(
                        "select count(*) from invitations where organization_id = ? and lower(email) = lower(?)",
                        account.organizationId(),
                        twentyFirst))
                .isZero();
        assertThat(count("select count(*) from invitations where organization_id = ?", account.organizationId()))
                .isEqualTo(20);
    }

    @Test
    void shouldSendAtMostThreeEmailChangeLinksPerCustomerAnHour() {
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String address = "moving-" + i + "-" + UUID.randomUUID() + "@example.com";
            addresses.add(address);
            Api.Response requested = changeEmail(address);
            assertThat(requested.status()).as(requested.toString()).isEqualTo(202);
        }
        String fourth = "moving-3-" + UUID.randomUUID() + "@example.com";

        Api.Response refused = changeEmail(fourth);

        assertRefusedWithRetryAfter(refused, 3600);
        assertThat(queuedTo(fourth)).isZero();
        assertThat(count(
                        "select count(*) from mail_outbox where lower(recipient) = lower(?) and subject = ?",
                        account.email(),
                        "Your email address is about to change"))
                .isEqualTo(3);
        // the newest link still works
        String token = Inbox.token(new Inbox(baseUrl(), addresses.get(2)).awaitMessage("Confirm your new email"));
        Api.Response confirmed = api().post("/api/v1/auth/email-change/confirm", Map.of("token", token));
        assertThat(confirmed.status()).as(confirmed.toString()).isEqualTo(200);
        assertThat(new Inbox(baseUrl(), fourth).messages()).isEmpty();
    }

    @Test
    void shouldKeepTheOrganizationsNameOutOfTheInvitationSubjectAndQuoteItInTheBody() {
        String name = "Your account is locked: call +1 555 0100";
        Api.Response created = session.post("/api/v1/organizations", Map.of("name", name));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(session.put(
                                "/api/v1/session/project",
                                Map.of(
                                        "project_id",
                                        created.json().get("project_id").asString()))
                        .status())
                .isEqualTo(200);
        String target = "quoted-" + UUID.randomUUID() + "@example.com";

        assertThat(invite(session, target).status()).isEqualTo(201);

        JsonNode mail = new Inbox(baseUrl(), target).awaitMessage(INVITED);
        assertThat(mail.get("subject").asString()).isEqualTo("You are invited to join an organization on kv-portal");
        // (a name with bidirectional controls is refused when the organization is made: ReadableNamesTest)
        assertThat(mail.get("text").asString())
                .contains("the organization \"Your account is locked: call +1 555 0100\"");
    }

    private Api.Response changeEmail(String newEmail) {
        return session.put("/api/v1/account/email", Map.of("new_email", newEmail, "current_password", PASSWORD));
    }
}
