package com.kvportal.account;

import static com.kvportal.support.Problems.assertFieldErrors;
import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.Inbox;
import com.kvportal.support.IntegrationTest;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class EmailVerificationTest extends IntegrationTest {

    private static final String SUBJECT = "Confirm your email address";

    private Api session;
    private Api.Account account;

    @BeforeEach
    void signUpUnverified() {
        session = api();
        account = session.signupUnverified();
    }

    private Inbox inbox() {
        return new Inbox(baseUrl(), account.email());
    }

    private Api.Response verify(String token) {
        return api().post("/api/v1/auth/verify-email", Map.of("token", token));
    }

    private boolean verified() {
        return session.get("/api/v1/session").json().get("email_verified").asBoolean();
    }

    @Test
    void shouldMailALinkAtSignupThatVerifiesTheAddressOnce() {
        assertThat(verified()).isFalse();
        JsonNode message = inbox().awaitMessage(SUBJECT);
        assertThat(Inbox.link(message).toString()).startsWith(baseUrl() + "/verify-email?token=");
        String token = Inbox.token(message);
        assertThat(token).matches("[A-Za-z0-9_-]{43,}");

        Api.Response first = verify(token);

        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        assertThat(first.json().get("email").asString()).isEqualTo(account.email());
        assertThat(first.json().get("email_verified").asBoolean()).isTrue();
        assertThat(verified()).isTrue();
        assertProblem(verify(token), 400, "token_invalid");
        assertThat(session.get("/api/v1/audit-events").body()).contains("customer.email_verified");
    }

    @Test
    void shouldKeepOnlyTheDigestOfTheToken() {
        String token = Inbox.token(inbox().awaitMessage(SUBJECT));

        assertThat(count("select count(*) from account_tokens where customer_id = ?", account.customerId()))
                .isEqualTo(1);
        assertThat(count(
                        "select count(*) from account_tokens where customer_id = ? and position(convert_to(?, 'UTF8') in digest) > 0",
                        account.customerId(),
                        token))
                .isZero();
        assertThat(session.get("/api/v1/audit-events").body()).doesNotContain(token);
    }

    @Test
    void shouldRefuseAForgedOrExpiredTokenAndChangeNothing() {
        String token = Inbox.token(inbox().awaitMessage(SUBJECT));
        jdbc.sql("update account_tokens set expires_at = now() - interval '1 second' where customer_id = ?")
                .param(account.customerId())
                .update();

        assertProblem(verify(token), 400, "token_invalid");
        assertProblem(verify("A".repeat(43)), 400, "token_invalid");
        assertProblem(verify(""), 400, "token_invalid");
        assertFieldErrors(api().post("/api/v1/auth/verify-email", Map.of()), "token");
        assertThat(verified()).isFalse();
    }

    @Test
    void shouldResendALinkAtMostFiveTimesAnHour() {
        inbox().awaitMessage(SUBJECT);
        for (int i = 0; i < 5; i++) {
            Api.Response resent = session.post("/api/v1/account/verification-email");
            assertThat(resent.status()).as(resent.toString()).isEqualTo(202);
        }

        Api.Response sixth = session.post("/api/v1/account/verification-email");

        assertProblem(sixth, 429, "too_many_requests");
        assertThat(sixth.header("Retry-After")).isNotNull();
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(10))
                .until(() -> inbox().count(SUBJECT) == 6);
        // every link works, the newest as well as the signup's
        assertThat(verify(Inbox.token(inbox().messages().get(0))).status()).isEqualTo(200);
    }

    @Test
    void shouldRefuseAResendOnceVerified() {
        verify(Inbox.token(inbox().awaitMessage(SUBJECT)));

        assertProblem(session.post("/api/v1/account/verification-email"), 409, "email_already_verified");
    }

    @Test
    void shouldRefuseAResendWithoutASessionOrWithAKey() {
        assertProblem(api().post("/api/v1/account/verification-email"), 401, "unauthenticated");
        String key = signedUp().createKey("admin", "admin");
        assertProblem(Api.withKey(baseUrl(), key).post("/api/v1/account/verification-email"), 400, "session_required");
        assertProblem(session.withoutCsrfEcho().post("/api/v1/account/verification-email"), 403, "csrf_failed");
    }
}
