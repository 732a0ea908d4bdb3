package com.kvportal.account;

import static com.kvportal.support.Problems.assertFieldErrors;
import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.Inbox;
import com.kvportal.support.SignedInTest;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Changing the password and the email address of the signed-in customer. */
class AccountChangesTest extends SignedInTest {

    private static final String PASSWORD = "correct horse battery";
    private static final String NEW_PASSWORD = "a brand new passphrase";

    private Api signedIn(String email, String password) {
        Api api = api();
        Api.Response response = api.post("/api/v1/auth/login", Map.of("email", email, "password", password));
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return api;
    }

    private Api.Response changePassword(Api api, String current, String next) {
        return api.put("/api/v1/account/password", Map.of("current_password", current, "new_password", next));
    }

    private Api.Response changeEmail(Api api, String newEmail, String current) {
        return api.put("/api/v1/account/email", Map.of("new_email", newEmail, "current_password", current));
    }

    /** Asks on {@code api}'s session to move the account to {@code newEmail}; answers the token mailed there. */
    private String requestEmailChange(Api api, String newEmail) {
        assertThat(changeEmail(api, newEmail, PASSWORD).status()).isEqualTo(202);
        return Inbox.token(new Inbox(baseUrl(), newEmail).awaitMessage("Confirm your new email address"));
    }

    private Api.Response confirmEmail(String token) {
        return api().post("/api/v1/auth/email-change/confirm", Map.of("token", token));
    }

    @Test
    void shouldChangeThePasswordEndingTheOtherSessionsOnly() {
        Api other = signedIn(account.email(), PASSWORD);

        Api.Response changed = changePassword(session, PASSWORD, NEW_PASSWORD);

        assertThat(changed.status()).as(changed.toString()).isEqualTo(204);
        assertThat(session.get("/api/v1/session").status()).isEqualTo(200);
        assertProblem(other.get("/api/v1/session"), 401, "unauthenticated");
        signedIn(account.email(), NEW_PASSWORD);
        assertThat(new Inbox(baseUrl(), account.email())
                        .awaitMessage("Your password was changed")
                        .get("text")
                        .asString())
                .doesNotContain(NEW_PASSWORD)
                .doesNotContain(PASSWORD);
        assertThat(session.get("/api/v1/audit-events").body())
                .contains("customer.password_changed")
                .doesNotContain(NEW_PASSWORD);
    }

    @Test
    void shouldRefuseAWrongCurrentPasswordOrAWeakNewOneAndChangeNothing() {
        assertProblem(changePassword(session, "not my password", NEW_PASSWORD), 403, "reauthentication_failed");
        JsonNode weak = assertProblem(changePassword(session, PASSWORD, "short"), 400, "validation_failed");
        assertThat(weak.get("errors")).hasSize(1);
        assertThat(weak.get("errors").get(0).get("field").asString()).isEqualTo("new_password");
        assertThat(weak.get("errors").get(0).get("message").asString()).isEqualTo("must be 12 to 128 characters");
        assertFieldErrors(
                session.put("/api/v1/account/password", Map.of("new_password", NEW_PASSWORD)), "current_password");

        signedIn(account.email(), PASSWORD);
    }

    @Test
    void shouldLockAfterFiveWrongCurrentPasswordsAsLoginDoes() {
        for (int i = 0; i < 5; i++) {
            assertProblem(
                    changePassword(session, "wrong " + i + " password", NEW_PASSWORD), 403, "reauthentication_failed");
        }

        assertProblem(changePassword(session, PASSWORD, NEW_PASSWORD), 429, "too_many_attempts");
    }

    @Test
    void shouldNeedASessionAndTheCsrfEcho() {
        assertProblem(changePassword(api(), PASSWORD, NEW_PASSWORD), 401, "unauthenticated");
        assertProblem(
                changePassword(Api.withKey(baseUrl(), session.createKey("admin", "admin")), PASSWORD, NEW_PASSWORD),
                400,
                "session_required");
        assertProblem(changePassword(session.withoutCsrfEcho(), PASSWORD, NEW_PASSWORD), 403, "csrf_failed");
    }

    @Test
    void shouldChangeTheEmailOnceTheNewAddressConfirms() {
        String newEmail = "new-" + UUID.randomUUID() + "@example.com";

        Api.Response requested = changeEmail(session, newEmail, PASSWORD);

        assertThat(requested.status()).as(requested.toString()).isEqualTo(202);
        assertThat(session.get("/api/v1/session").json().get("email").asString())
                .isEqualTo(account.email());
        assertThat(new Inbox(baseUrl(), account.email())
                        .awaitMessage("Your email address is about to change")
                        .get("text")
                        .asString())
                .contains(newEmail);
        var message = new Inbox(baseUrl(), newEmail).awaitMessage("Confirm your new email address");
        assertThat(Inbox.link(message).getPath()).isEqualTo("/confirm-email-change");
        String token = Inbox.token(message);

        Api.Response confirmed = confirmEmail(token);

        assertThat(confirmed.status()).as(confirmed.toString()).isEqualTo(200);
        assertThat(confirmed.json().get("email").asString()).isEqualTo(newEmail);
        var view = session.get("/api/v1/session").json();
        assertThat(view.get("email").asString()).isEqualTo(newEmail);
        assertThat(view.get("email_verified").asBoolean()).isTrue();
        signedIn(newEmail, PASSWORD);
        assertProblem(confirmEmail(token), 400, "token_invalid");
        assertThat(session.get("/api/v1/audit-events").body()).contains("customer.email_changed");
    }

    /** Someone who learnt the password asks to move the account to their address; the owner resets the password. */
    @Test
    void shouldEndAPendingEmailChangeWhenThePasswordIsReset() {
        String attackers = "attacker-" + UUID.randomUUID() + "@example.com";
        String attackersToken = requestEmailChange(signedIn(account.email(), PASSWORD), attackers);

        Inbox owners = new Inbox(baseUrl(), account.email());
        assertThat(api().post("/api/v1/auth/password-reset", Map.of("email", account.email()))
                        .status())
                .isEqualTo(202);
        String reset = Inbox.token(owners.awaitMessage("Reset your password"));
        assertThat(api().post("/api/v1/auth/password-reset/confirm", Map.of("token", reset, "password", NEW_PASSWORD))
                        .status())
                .isEqualTo(204);

        assertProblem(confirmEmail(attackersToken), 400, "token_invalid");
        assertThat(signedIn(account.email(), NEW_PASSWORD)
                        .get("/api/v1/session")
                        .json()
                        .get("email")
                        .asString())
                .isEqualTo(account.email());
        assertThat(count("select count(*) from customers where lower(email) = lower(?)", attackers))
                .isZero();
    }

    @Test
    void shouldEndAPendingEmailChangeWhenThePasswordIsChanged() {
        String attackers = "attacker-" + UUID.randomUUID() + "@example.com";
        String attackersToken = requestEmailChange(signedIn(account.email(), PASSWORD), attackers);

        assertThat(changePassword(session, PASSWORD, NEW_PASSWORD).status()).isEqualTo(204);

        assertProblem(confirmEmail(attackersToken), 400, "token_invalid");
        assertThat(session.get("/api/v1/session").json().get("email").asString())
                .isEqualTo(account.email());
    }

    @Test
    void shouldEndAPendingEmailChangeWhenANewerOneIsRequested() {
        String first = "first-" + UUID.randomUUID() + "@example.com";
        String second = "second-" + UUID.randomUUID() + "@example.com";
        String older = requestEmailChange(session, first);
        String newer = requestEmailChange(session, second);

        assertProblem(confirmEmail(older), 400, "token_invalid");
        assertThat(session.get("/api/v1/session").json().get("email").asString())
                .isEqualTo(account.email());
        assertThat(confirmEmail(newer).json().get("email").asString()).isEqualTo(second);
    }

    @Test
    void shouldRefuseATakenAddressAtRequestAndAtConfirmation() {
        Api.Account other = api().signup();
        assertProblem(changeEmail(session, other.email().toUpperCase(), PASSWORD), 409, "email_taken");

        String wanted = "wanted-" + UUID.randomUUID() + "@example.com";
        String token = requestEmailChange(session, wanted);
        // someone signs up with it meanwhile
        api().post("/api/v1/auth/signup", Map.of("email", wanted, "password", PASSWORD));

        assertProblem(confirmEmail(token), 409, "email_taken");
        assertThat(session.get("/api/v1/session").json().get("email").asString())
                .isEqualTo(account.email());
    }

    @Test
    void shouldRefuseABadEmailChangeAndChangeNothing() {
        assertProblem(
                changeEmail(session, "new-" + UUID.randomUUID() + "@example.com", "wrong password!"),
                403,
                "reauthentication_failed");
        assertFieldErrors(changeEmail(session, "not an address", PASSWORD), "new_email");
        assertProblem(confirmEmail("forged"), 400, "token_invalid");
        assertFieldErrors(api().post("/api/v1/auth/email-change/confirm", Map.of()), "token");
        assertThat(session.get("/api/v1/session").json().get("email").asString())
                .isEqualTo(account.email());
    }
}
