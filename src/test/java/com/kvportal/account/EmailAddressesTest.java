package com.kvportal.account;

import static com.kvportal.support.Problems.assertFieldErrors;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.Inbox;
import com.kvportal.support.SignedInTest;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Email addresses as mail can carry them: the part before the @ in ASCII, refused otherwise wherever an address is
 * taken; an internationalized domain kept as typed and mailed to its punycode form, found in the mail sandbox by
 * either form.
 */
class EmailAddressesTest extends SignedInTest {

    private static String nonAsciiLocal() {
        return "ünï-" + UUID.randomUUID() + "@example.com";
    }

    /** No row of the table holds the address, and nothing was mailed to it. */
    private void assertNothingKeptOrMailed(String table, String email) {
        assertThat(count("select count(*) from " + table + " where email = ?", email))
                .isZero();
        assertNothingMailedTo(email);
    }

    private void assertNothingMailedTo(String email) {
        assertThat(count("select count(*) from mail_outbox where recipient = ?", email))
                .isZero();
    }

    @Test
    void shouldRefuseANonAsciiLocalPartAtSignupAndCreateNoCustomer() {
        String email = nonAsciiLocal();

        Api.Response response = api().post("/api/v1/auth/signup", Map.of("email", email, "password", Api.PASSWORD));

        assertFieldErrors(response, "email");
        assertThat(response.json().get("errors").get(0).get("message").asString())
                .contains("ASCII")
                .contains("before the @");
        assertNothingKeptOrMailed("customers", email);
    }

    @Test
    void shouldRefuseANonAsciiLocalPartInAnInvitationAndInviteNobody() {
        String email = nonAsciiLocal();

        assertFieldErrors(session.post("/api/v1/invitations", Map.of("email", email, "role", "viewer")), "email");

        assertNothingKeptOrMailed("invitations", email);
    }

    @Test
    void shouldRefuseANonAsciiLocalPartAsANewEmailAndMailNothing() {
        String email = nonAsciiLocal();

        assertFieldErrors(
                session.put("/api/v1/account/email", Map.of("new_email", email, "current_password", Api.PASSWORD)),
                "new_email");

        assertNothingMailedTo(email);
        assertThat(session.get("/api/v1/session").json().get("email").asString())
                .isEqualTo(account.email());
    }

    @Test
    void shouldKeepAnInternationalizedDomainAsTypedAndMailItsPunycodeForm() {
        String local = "ada-" + UUID.randomUUID();
        String typed = local + "@exämple.com";
        String ascii = local + "@xn--exmple-cua.com";
        Api person = api();

        Api.Response signup = person.post("/api/v1/auth/signup", Map.of("email", typed, "password", Api.PASSWORD));

        assertThat(signup.status()).as(signup.toString()).isEqualTo(201);
        assertThat(person.get("/api/v1/session").json().get("email").asString()).isEqualTo(typed);
        JsonNode byTyped = new Inbox(baseUrl(), typed).awaitMessage("Confirm your email address");
        JsonNode byAscii = new Inbox(baseUrl(), ascii).awaitMessage("Confirm your email address");
        assertThat(byAscii.get("id")).isEqualTo(byTyped.get("id"));
        assertThat(byTyped.get("to").asString())
                .as("the recipient the SMTP server got")
                .isEqualTo(ascii);
        Api.Response verified = person.post("/api/v1/auth/verify-email", Map.of("token", Inbox.token(byTyped)));
        assertThat(verified.status()).as(verified.toString()).isEqualTo(200);
        assertThat(verified.json().get("email_verified").asBoolean()).isTrue();
    }
}
