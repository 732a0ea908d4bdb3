package com.kvportal.account;

import static com.kvportal.support.Problems.assertFieldErrors;
import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.Concurrently;
import com.kvportal.support.IntegrationTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class LoginTest extends IntegrationTest {

    private static final String PASSWORD = "correct horse battery";

    private Api.Response login(Api api, String email, String password) {
        return api.post("/api/v1/auth/login", Map.of("email", email, "password", password));
    }

    /** Tries to sign in with a wrong password this many times, each a new one, from fresh clients. */
    private void failLogins(String email, int times) {
        for (int i = 0; i < times; i++) {
            login(api(), email, "wrong password " + i);
        }
    }

    /** Fails as many logins of the email as are allowed: then even the right password is refused, with a 429. */
    private void lockOut(String email) {
        failLogins(email, 5);
        assertProblem(login(api(), email, PASSWORD), 429, "too_many_attempts");
    }

    @Test
    void shouldSignInWithTheRightPasswordAndAnswerTheSignupIds() {
        Api.Account account = api().signup();
        Api api = api();

        Api.Response response = login(api, account.email(), PASSWORD);

        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        assertThat(response.json().get("customer_id").asString())
                .isEqualTo(account.customerId().toString());
        assertThat(response.json().get("organization_id").asString())
                .isEqualTo(account.organizationId().toString());
        assertThat(response.json().get("project_id").asString())
                .isEqualTo(account.projectId().toString());
        assertThat(response.setCookie("SESSION")).containsIgnoringCase("HttpOnly");
        assertThat(response.setCookie("XSRF-TOKEN")).isNotNull().doesNotContainIgnoringCase("HttpOnly");
        assertThat(api.get("/api/v1/session").status()).isEqualTo(200);
    }

    @Test
    void shouldAcceptTheEmailInAnotherCase() {
        Api.Account account = api().signup();

        assertThat(login(api(), account.email().toUpperCase(), PASSWORD).status())
                .isEqualTo(200);
    }

    @Test
    void shouldChangeTheSessionIdAtLoginAndDropTheOldSession() {
        Api api = api();
        Api.Account account = api.signup();
        String before = api.cookie("SESSION");
        assertThat(before).isNotNull();

        Api.Response response = login(api, account.email(), PASSWORD);

        assertThat(response.status()).isEqualTo(200);
        String after = api.cookie("SESSION");
        assertThat(after).isNotNull().isNotEqualTo(before);
        assertThat(api.get("/api/v1/session").status()).isEqualTo(200);
        Api stale = api();
        stale.setCookie("SESSION", before);
        assertProblem(stale.get("/api/v1/session"), 401, "unauthenticated");
    }

    @Test
    void shouldIgnoreASessionIdPlantedBeforeLogin() {
        Api.Account account = api().signup();
        Api victim = api();
        victim.setCookie("SESSION", "planted-by-an-attacker");

        login(victim, account.email(), PASSWORD);

        assertThat(victim.cookie("SESSION")).isNotEqualTo("planted-by-an-attacker");
        Api attacker = api();
        attacker.setCookie("SESSION", "planted-by-an-attacker");
        assertProblem(attacker.get("/api/v1/session"), 401, "unauthenticated");
    }

    @Test
    void shouldAnswerOneAndTheSameProblemForUnknownEmailAndWrongPassword() {
        Api.Account account = api().signup();

        Api.Response unknown = login(api(), "nobody-" + account.email(), PASSWORD);
        Api.Response wrong = login(api(), account.email(), "wrong password!");

        assertProblem(unknown, 401, "invalid_credentials");
        assertProblem(wrong, 401, "invalid_credentials");
        assertThat(unknown.json()).isEqualTo(wrong.json());
        // a 401 carries a challenge (RFC 9110 15.5.2)
        assertThat(unknown.header("WWW-Authenticate")).isEqualTo("Bearer");
        assertThat(wrong.header("WWW-Authenticate")).isEqualTo("Bearer");
        assertThat(unknown.setCookie("SESSION")).isNull();
        assertThat(wrong.setCookie("SESSION")).isNull();
    }

    @Test
    void shouldRefuseAnEmailThatSignupWouldRefuseBeforeCountingAnyAttempt() {
        for (Object email :
                new Object[] {"", "not-an-email", "a@b", "two@@example.com", "x".repeat(250) + "@example.com"}) {
            Api.Response response = api().post("/api/v1/auth/login", Map.of("email", email, "password", PASSWORD));
            assertProblem(response, 400, "validation_failed");
            assertFieldErrors(response, "email");
        }
        assertFieldErrors(api().post("/api/v1/auth/login", Map.of("password", PASSWORD)), "email");
        assertThat(count("select count(*) from login_failures where email in ('', 'not-an-email', 'a@b')"))
                .isZero();
    }

    @Test
    void shouldAnswer401ForAMissingPassword() {
        assertProblem(
                api().post("/api/v1/auth/login", Map.of("email", "nobody-missing@example.com")),
                401,
                "invalid_credentials");
    }

    @Test
    void shouldPurgeFailuresOnAScheduleOnceTheirWindowAndLockHavePassed(@Autowired LoginThrottle throttle) {
        String stale = "stale-" + UUID.randomUUID() + "@example.com";
        String staleLock = "stale-lock-" + UUID.randomUUID() + "@example.com";
        String recent = "recent-" + UUID.randomUUID() + "@example.com";
        String locked = "locked-" + UUID.randomUUID() + "@example.com";
        failLogins(stale, 1);
        failLogins(staleLock, 6);
        failLogins(recent, 1);
        failLogins(locked, 6);
        jdbc.sql("update login_failures set window_start = now() - interval '1 day' where email in (?, ?, ?)")
                .params(stale, staleLock, locked)
                .update();
        jdbc.sql("update login_failures set locked_until = now() - interval '1 second' where email = ?")
                .param(staleLock)
                .update();

        throttle.forgetStale();

        assertThat(count("select count(*) from login_failures where email in (?, ?)", stale, staleLock))
                .isZero();
        assertThat(count("select count(*) from login_failures where email in (?, ?)", recent, locked))
                .as("a window still open, a lock still running")
                .isEqualTo(2);
        assertThat(login(api(), locked, PASSWORD).code()).isEqualTo("too_many_attempts");
        assertThat(throttle.schedule().interval())
                .as("the purge runs on a schedule (LoginThrottle is a PeriodicJob)")
                .isEqualTo(Duration.ofMinutes(10));
    }

    @Test
    void shouldLockTheEmailAfterFiveFailuresEvenForTheRightPassword() {
        Api.Account account = api().signup();
        for (int i = 0; i < 5; i++) {
            assertProblem(login(api(), account.email(), "wrong password " + i), 401, "invalid_credentials");
        }

        Api.Response locked = login(api(), account.email(), "wrong password again");
        Api.Response lockedRight = login(api(), account.email(), PASSWORD);

        assertProblem(locked, 429, "too_many_attempts");
        assertProblem(lockedRight, 429, "too_many_attempts");
        assertThat(lockedRight.setCookie("SESSION")).isNull();
        String retryAfter = lockedRight.header("Retry-After");
        assertThat(retryAfter).isNotNull().matches("\\d+");
        assertThat(Long.parseLong(retryAfter)).isBetween(1L, 15 * 60L);
    }

    @Test
    void shouldCountFailuresOfTheSameEmailInAnyCase() {
        Api.Account account = api().signup();
        for (int i = 0; i < 5; i++) {
            String email = i % 2 == 0 ? account.email().toUpperCase() : account.email();
            login(api(), email, "wrong password " + i);
        }

        assertProblem(login(api(), account.email(), PASSWORD), 429, "too_many_attempts");
    }

    @Test
    void shouldThrottleEachEmailOnItsOwn() {
        Api.Account locked = api().signup();
        Api.Account other = api().signup();
        lockOut(locked.email());

        assertThat(login(api(), other.email(), PASSWORD).status()).isEqualTo(200);
    }

    @Test
    void shouldResetTheCountAfterASuccessfulLogin() {
        Api.Account account = api().signup();
        failLogins(account.email(), 4);
        assertThat(login(api(), account.email(), PASSWORD).status()).isEqualTo(200);

        for (int i = 0; i < 4; i++) {
            assertProblem(login(api(), account.email(), "wrong again " + i), 401, "invalid_credentials");
        }
        assertThat(login(api(), account.email(), PASSWORD).status()).isEqualTo(200);
    }

    @Test
    void shouldThrottleUnknownEmailsToo() {
        String email = "ghost-" + java.util.UUID.randomUUID() + "@example.com";
        lockOut(email);
    }

    @Test
    void shouldLetNoMoreThanFiveAttemptsThroughWhenTwentyArriveAtOnce() throws Exception {
        Api.Account account = api().signup();

        List<Integer> statuses = Concurrently.run(
                20, () -> login(api(), account.email(), "wrong password").status());

        assertThat(statuses).filteredOn(status -> status == 401).hasSizeLessThanOrEqualTo(5);
        assertThat(statuses).filteredOn(status -> status == 429).hasSizeGreaterThanOrEqualTo(15);
        assertThat(login(api(), account.email(), PASSWORD).status()).isEqualTo(429);
    }

    @Test
    void shouldAcceptTheRightPasswordOnceTheLockHasPassed() {
        Api.Account account = api().signup();
        lockOut(account.email());

        jdbc.sql("update login_failures set locked_until = now() - interval '1 second',"
                        + " window_start = now() - interval '1 hour' where email = lower(?)")
                .param(account.email())
                .update();

        assertThat(login(api(), account.email(), PASSWORD).status()).isEqualTo(200);
    }

    @Test
    void shouldNeedNoCsrfHeader() {
        Api api = api().withoutCsrfEcho();
        Api.Account account = api.signup();

        assertThat(login(api, account.email(), PASSWORD).status()).isEqualTo(200);
    }

    @Test
    void shouldReturn415ForAForm() {
        Api.Account account = api().signup();

        assertProblem(
                api().send(
                                "POST",
                                "/api/v1/auth/login",
                                "email=" + account.email() + "&password=correct+horse+battery",
                                "application/x-www-form-urlencoded"),
                415,
                "unsupported_media_type");
    }
}
