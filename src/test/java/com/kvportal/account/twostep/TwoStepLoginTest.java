package com.kvportal.account.twostep;

import static com.kvportal.support.Problems.assertFieldErrors;
import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.kvportal.support.Api;
import com.kvportal.support.Concurrently;
import com.kvportal.support.Inbox;
import com.kvportal.support.SignedInTest;
import dev.samstevens.totp.code.DefaultCodeGenerator;
import dev.samstevens.totp.code.HashingAlgorithm;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

class TwoStepLoginTest extends SignedInTest {

    private static final String PASSWORD = "correct horse battery";

    private long step;

    /** Away from a step's edge, so that "now" is the same step for the test and the service. */
    @BeforeEach
    void awayFromAStepEdge() throws InterruptedException {
        long millisIntoStep = System.currentTimeMillis() % 30_000;
        if (millisIntoStep > 25_000) {
            Thread.sleep(30_000 - millisIntoStep + 200);
        }
        step = System.currentTimeMillis() / 30_000;
    }

    private static String code(String secret, long step) {
        try {
            return new DefaultCodeGenerator(HashingAlgorithm.SHA1, 6).generate(secret, step);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A code of none of the steps the service accepts now: certainly wrong. */
    private String wrongCode(String secret, int i) {
        Set<String> right = Set.of(code(secret, step - 1), code(secret, step), code(secret, step + 1));
        return IntStream.range(i, i + 10)
                .mapToObj(n -> String.format("%06d", (n * 7919L) % 1_000_000))
                .filter(candidate -> !right.contains(candidate))
                .findFirst()
                .orElseThrow();
    }

    private Api.Response setUp() {
        return session.post("/api/v1/account/totp", Map.of("current_password", PASSWORD));
    }

    /** Turns TOTP on with the code of the step before this one, answering the secret and the recovery codes. */
    private String enable(List<String> recoveryCodes) {
        session.verifyEmail();
        String secret = setUp().json().get("secret").asString();
        Api.Response confirmed = session.post("/api/v1/account/totp/confirm", Map.of("code", code(secret, step - 1)));
        assertThat(confirmed.status()).as(confirmed.toString()).isEqualTo(200);
        confirmed.json().get("recovery_codes").forEach(c -> recoveryCodes.add(c.asString()));
        return secret;
    }

    private Api passwordStep() {
        Api api = api();
        Api.Response response = api.post("/api/v1/auth/login", Map.of("email", account.email(), "password", PASSWORD));
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        assertThat(response.json().get("mfa_required").asBoolean()).isTrue();
        assertThat(response.json().has("customer_id")).isFalse();
        return api;
    }

    private static Api.Response secondStep(Api api, String field, String value) {
        Map<String, Object> body = new HashMap<>();
        body.put(field, value);
        return api.post("/api/v1/auth/login/totp", body);
    }

    @Test
    void shouldSetUpASecretWithItsUriAndQrCode() {
        session.verifyEmail();
        Api.Response setup = setUp();

        assertThat(setup.status()).as(setup.toString()).isEqualTo(200);
        String secret = setup.json().get("secret").asString();
        assertThat(secret).matches("[A-Z2-7]{32}");
        assertThat(setup.json().get("otpauth_uri").asString())
                .startsWith("otpauth://totp/")
                .contains("secret=" + secret)
                .contains("issuer=kv-portal")
                .contains("digits=6")
                .contains("period=30");
        assertThat(setup.json().get("qr_code").asString()).startsWith("data:image/png;base64,");
        // not in force before a code confirms it
        assertThat(api().post("/api/v1/auth/login", Map.of("email", account.email(), "password", PASSWORD))
                        .json()
                        .get("mfa_required")
                        .asBoolean())
                .isFalse();
    }

    @Test
    void shouldTurnOnWithAFirstCodeAndHandOutTenRecoveryCodesKeptAsDigests() {
        session.verifyEmail();
        String secret = setUp().json().get("secret").asString();
        assertProblem(session.post("/api/v1/account/totp/confirm", Map.of("code", "000000")), 400, "invalid_code");
        List<String> codes = new ArrayList<>();

        enable(codes);

        assertThat(codes).hasSize(10);
        assertThat(new HashSet<>(codes)).hasSize(10);
        for (String code : codes) {
            assertThat(count(
                            "select count(*) from recovery_codes where customer_id = ? and position(convert_to(?, 'UTF8') in digest) > 0",
                            account.customerId(),
                            code))
                    .isZero();
        }
        assertProblem(setUp(), 409, "totp_already_enabled");
        assertProblem(
                session.post("/api/v1/account/totp/confirm", Map.of("code", code(secret, step))),
                409,
                "totp_already_enabled");
        String audit = session.get("/api/v1/audit-events").body();
        assertThat(audit).contains("customer.totp_enabled").doesNotContain(secret);
        codes.forEach(code -> assertThat(audit).doesNotContain(code));
    }

    @Test
    void shouldRefuseAConfirmationWithoutASetup() {
        assertProblem(session.post("/api/v1/account/totp/confirm", Map.of("code", "123456")), 409, "totp_not_started");
    }

    @Test
    void shouldSignInWithACodeOnlyOnceAndAllowNothingElseBefore() {
        String secret = enable(new ArrayList<>());
        Api browser = passwordStep();

        // the intermediate session can do nothing else
        assertProblem(browser.get("/api/v1/session"), 401, "unauthenticated");
        assertProblem(browser.get("/api/v1/account/sessions"), 401, "unauthenticated");
        assertProblem(browser.post("/api/v1/api-keys", Map.of("name", "sneaky")), 401, "unauthenticated");

        Api.Response done = secondStep(browser, "code", code(secret, step));

        assertThat(done.status()).as(done.toString()).isEqualTo(200);
        assertThat(done.json().get("customer_id").asString())
                .isEqualTo(account.customerId().toString());
        assertThat(done.json().get("mfa_required").asBoolean()).isFalse();
        assertThat(browser.get("/api/v1/session").status()).isEqualTo(200);
        // the same code again, within its window: refused
        assertProblem(secondStep(passwordStep(), "code", code(secret, step)), 401, "invalid_code");
        assertThat(secondStep(passwordStep(), "code", code(secret, step + 1)).status())
                .isEqualTo(200);
    }

    @Test
    void shouldSignInOnceWithEachRecoveryCode() {
        List<String> codes = new ArrayList<>();
        enable(codes);

        assertThat(secondStep(passwordStep(), "recovery_code", codes.get(0)).status())
                .isEqualTo(200);

        assertProblem(secondStep(passwordStep(), "recovery_code", codes.get(0)), 401, "invalid_code");
        assertThat(secondStep(passwordStep(), "recovery_code", codes.get(1).toUpperCase())
                        .status())
                .isEqualTo(200);
        assertThat(session.get("/api/v1/audit-events").body()).contains("customer.recovery_code_used");
    }

    @Test
    void shouldCheckNoMoreThanFourWrongCodesHoweverOftenThePasswordIsRightAndFromWhichAddress() {
        String secret = enable(new ArrayList<>());
        Inbox inbox = new Inbox(baseUrl(), account.email());
        List<String> answers = new ArrayList<>();

        // the brute force: a right password, then a guess, again and again, from ever other addresses
        for (int attempt = 0; attempt < 12; attempt++) {
            String address = "198.51.100." + (attempt + 1);
            Api attacker = api();
            Api.Response password = from(
                    attacker, address, "/api/v1/auth/login", Map.of("email", account.email(), "password", PASSWORD));
            assertThat(password.status())
                    .as("the password is never what is locked here: " + password)
                    .isEqualTo(200);
            Api.Response guess =
                    from(attacker, address, "/api/v1/auth/login/totp", Map.of("code", wrongCode(secret, attempt)));
            answers.add(guess.status() + " " + guess.code());
        }

        assertThat(answers)
                .as("the codes actually checked (401) before every further one is refused (429)")
                .containsExactly(
                        "401 invalid_code",
                        "401 invalid_code",
                        "401 invalid_code",
                        "401 invalid_code",
                        "429 too_many_attempts",
                        "429 too_many_attempts",
                        "429 too_many_attempts",
                        "429 too_many_attempts",
                        "429 too_many_attempts",
                        "429 too_many_attempts",
                        "429 too_many_attempts",
                        "429 too_many_attempts");
        // a right code is refused too, from yet another address, with the time to wait
        Api owner = passwordStep();
        Api.Response right = from(owner, "203.0.113.9", "/api/v1/auth/login/totp", Map.of("code", code(secret, step)));
        assertProblem(right, 429, "too_many_attempts");
        assertThat(right.setCookie("SESSION")).isNull();
        assertThat(Long.parseLong(right.header("Retry-After"))).isBetween(15 * 60L - 60, 15 * 60L);
        assertProblem(owner.get("/api/v1/session"), 401, "unauthenticated");
        assertThat(inbox.awaitMessage("Two-step login of your account is locked")
                        .get("text")
                        .asString())
                .contains("5 wrong two-step login codes")
                .contains("15 minutes");
        assertThat(inbox.count("Two-step login of your account is locked"))
                .as("one notice per lock")
                .isEqualTo(1);
        assertThat(session.get("/api/v1/audit-events").body())
                .as("the refusals are audited as failed logins")
                .contains("\"reason\":\"invalid_code\"")
                .contains("\"reason\":\"too_many_attempts\"");
    }

    @Test
    void shouldLetNoMoreThanFourOfTwentyWrongCodesAtOnceBeChecked() throws Exception {
        String secret = enable(new ArrayList<>());
        List<Api> pending = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            pending.add(passwordStep());
        }
        AtomicInteger next = new AtomicInteger();

        List<Integer> statuses = Concurrently.run(20, () -> {
            int i = next.getAndIncrement();
            return secondStep(pending.get(i), "code", wrongCode(secret, i)).status();
        });

        assertThat(statuses).filteredOn(status -> status == 401).hasSize(4);
        assertThat(statuses).filteredOn(status -> status == 429).hasSize(16);
        assertThat(new Inbox(baseUrl(), account.email()).count("Two-step login of your account is locked"))
                .isLessThanOrEqualTo(1);
        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        new Inbox(baseUrl(), account.email()).count("Two-step login of your account is locked") == 1);
    }

    @Test
    void shouldAcceptCodesAgainOnceTheLockHasPassed() {
        String secret = enable(new ArrayList<>());
        lockCodes(secret);
        assertProblem(secondStep(passwordStep(), "code", code(secret, step)), 429, "too_many_attempts");

        jdbc.sql("update customers set codes_locked_until = now() - interval '1 second' where id = ?")
                .param(account.customerId())
                .update();

        Api.Response right = secondStep(passwordStep(), "code", code(secret, step));
        assertThat(right.status()).as(right.toString()).isEqualTo(200);
        // the count started afresh: four wrong codes are answered as wrong again
        for (int i = 0; i < 4; i++) {
            assertProblem(secondStep(passwordStep(), "code", wrongCode(secret, i)), 401, "invalid_code");
        }
    }

    @Test
    void shouldForgetWrongCodesOlderThanFifteenMinutes() {
        String secret = enable(new ArrayList<>());
        for (int i = 0; i < 4; i++) {
            assertProblem(secondStep(passwordStep(), "code", wrongCode(secret, i)), 401, "invalid_code");
        }
        jdbc.sql("update wrong_codes set failed_at = failed_at - interval '16 minutes' where customer_id = ?")
                .param(account.customerId())
                .update();

        assertProblem(secondStep(passwordStep(), "code", wrongCode(secret, 4)), 401, "invalid_code");
        assertThat(count("select count(*) from wrong_codes where customer_id = ?", account.customerId()))
                .isEqualTo(5);
    }

    @Test
    void shouldPurgeWrongCodesOlderThanTheWindowOnASchedule(@Autowired WrongCodes wrongCodes) {
        String secret = enable(new ArrayList<>());
        for (int i = 0; i < 2; i++) {
            assertProblem(secondStep(passwordStep(), "code", wrongCode(secret, i)), 401, "invalid_code");
        }
        jdbc.sql(
                        """
                        update wrong_codes set failed_at = now() - interval '16 minutes'
                        where customer_id = ? and failed_at = (select min(failed_at) from wrong_codes where customer_id = ?)""")
                .params(account.customerId(), account.customerId())
                .update();

        wrongCodes.forgetStale();

        assertThat(count("select count(*) from wrong_codes where customer_id = ?", account.customerId()))
                .isEqualTo(1);
        assertThat(wrongCodes.schedule().interval()).isEqualTo(Duration.ofMinutes(10));
    }

    @Test
    void shouldCountWrongRecoveryCodesAndRefuseAGoodOneWhileLocked() {
        List<String> codes = new ArrayList<>();
        enable(codes);
        for (int i = 0; i < 4; i++) {
            assertProblem(secondStep(passwordStep(), "recovery_code", "aaaaa-bbbb" + i), 401, "invalid_code");
        }

        assertProblem(secondStep(passwordStep(), "recovery_code", "aaaaa-bbbbz"), 429, "too_many_attempts");
        assertProblem(secondStep(passwordStep(), "recovery_code", codes.get(0)), 429, "too_many_attempts");

        assertThat(count(
                        "select count(*) from recovery_codes where customer_id = ? and used_at is null",
                        account.customerId()))
                .as("the good one was not used up")
                .isEqualTo(10);
    }

    @Test
    void shouldCountWrongCodesWhenTurningOffTogetherWithThoseAtLogin() {
        String secret = enable(new ArrayList<>());
        for (int i = 0; i < 2; i++) {
            assertProblem(secondStep(passwordStep(), "code", wrongCode(secret, i)), 401, "invalid_code");
        }
        for (int i = 2; i < 4; i++) {
            assertProblem(
                    session.delete(
                            "/api/v1/account/totp", Map.of("current_password", PASSWORD, "code", wrongCode(secret, i))),
                    400,
                    "invalid_code");
        }

        Api.Response fifth = session.delete(
                "/api/v1/account/totp", Map.of("current_password", PASSWORD, "code", wrongCode(secret, 4)));
        Api.Response right = session.delete(
                "/api/v1/account/totp", Map.of("current_password", PASSWORD, "code", code(secret, step)));

        assertProblem(fifth, 429, "too_many_attempts");
        assertProblem(right, 429, "too_many_attempts");
        assertThat(right.header("Retry-After")).matches("\\d+");
        assertThat(session.get("/api/v1/session").json().get("totp_enabled").asBoolean())
                .as("still on")
                .isTrue();
        assertProblem(secondStep(passwordStep(), "code", code(secret, step)), 429, "too_many_attempts");
        assertThat(new Inbox(baseUrl(), account.email()).awaitMessage("Two-step login of your account is locked"))
                .isNotNull();
    }

    @Test
    void shouldNeedTheCurrentPasswordToTurnTwoStepLoginOn() {
        session.verifyEmail();

        assertProblem(
                session.post("/api/v1/account/totp", Map.of("current_password", "not my password")),
                403,
                "reauthentication_failed");
        assertFieldErrors(session.post("/api/v1/account/totp", Map.of()), "current_password");

        assertThat(count("select count(*) from customers where id = ? and totp_secret is null", account.customerId()))
                .as("nothing changed")
                .isEqualTo(1);
        assertThat(setUp().status()).isEqualTo(200);
    }

    @Test
    void shouldMailANoticeWhenTurnedOnAndWhenTurnedOff() {
        Inbox inbox = new Inbox(baseUrl(), account.email());
        String secret = enable(new ArrayList<>());
        assertThat(inbox.awaitMessage("Two-step login was turned on")
                        .get("text")
                        .asString())
                .contains(account.email())
                .contains("/forgot-password");

        assertThat(session.delete(
                                "/api/v1/account/totp",
                                Map.of("current_password", PASSWORD, "code", code(secret, step)))
                        .status())
                .isEqualTo(204);

        inbox.awaitMessage("Two-step login was turned off");
        assertThat(inbox.count("Two-step login was turned")).isEqualTo(2);
    }

    /** Five wrong codes at login: every code of the customer is locked. */
    private void lockCodes(String secret) {
        for (int i = 0; i < 4; i++) {
            assertProblem(secondStep(passwordStep(), "code", wrongCode(secret, i)), 401, "invalid_code");
        }
        assertProblem(secondStep(passwordStep(), "code", wrongCode(secret, 4)), 429, "too_many_attempts");
    }

    /** A request as it reaches the service through a trusted proxy for the client {@code address}. */
    private static Api.Response from(Api api, String address, String path, Object body) {
        return api.sendRaw(
                "POST",
                path,
                HttpRequest.BodyPublishers.ofString(Api.JSON.writeValueAsString(body)),
                Map.of("Content-Type", "application/json", "X-Forwarded-For", address));
    }

    @Test
    void shouldRefuseASecondStepWithoutAPasswordStep() {
        assertProblem(secondStep(api(), "code", "123456"), 401, "unauthenticated");
        // a signed-in session is no pending login either
        assertProblem(secondStep(session, "code", "123456"), 401, "unauthenticated");
    }

    @Test
    void shouldTurnOffWithThePasswordAndACode() {
        String secret = enable(new ArrayList<>());
        String code = code(secret, step);

        assertProblem(
                session.delete("/api/v1/account/totp", Map.of("current_password", "wrong password!", "code", code)),
                403,
                "reauthentication_failed");
        assertProblem(
                session.delete("/api/v1/account/totp", Map.of("current_password", PASSWORD, "code", "000000")),
                400,
                "invalid_code");
        Api.Response off = session.delete("/api/v1/account/totp", Map.of("current_password", PASSWORD, "code", code));

        assertThat(off.status()).as(off.toString()).isEqualTo(204);
        JsonNode login = api().post("/api/v1/auth/login", Map.of("email", account.email(), "password", PASSWORD))
                .json();
        assertThat(login.get("mfa_required").asBoolean()).isFalse();
        assertProblem(
                session.delete("/api/v1/account/totp", Map.of("current_password", PASSWORD, "code", code)),
                409,
                "totp_not_enabled");
        assertThat(session.get("/api/v1/audit-events").body()).contains("customer.totp_disabled");
    }
}
