package com.kvportal.account;

import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.SignedInTest;
import dev.samstevens.totp.code.DefaultCodeGenerator;
import dev.samstevens.totp.code.HashingAlgorithm;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
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

    /** Turns TOTP on with the code of the step before this one, answering the secret and the recovery codes. */
    private String enable(List<String> recoveryCodes) {
        String secret =
                session.post("/api/v1/account/totp").json().get("secret").asString();
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
        Api.Response setup = session.post("/api/v1/account/totp");

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
        String secret =
                session.post("/api/v1/account/totp").json().get("secret").asString();
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
        assertProblem(session.post("/api/v1/account/totp"), 409, "totp_already_enabled");
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
    void shouldEndTheIntermediateSessionAndLockTheAddressAfterFiveWrongCodes() {
        String secret = enable(new ArrayList<>());
        Api browser = passwordStep();
        for (int i = 0; i < 5; i++) {
            assertProblem(secondStep(browser, "code", "00000" + i), 401, "invalid_code");
        }

        assertProblem(secondStep(browser, "code", code(secret, step)), 401, "unauthenticated");
        assertProblem(
                api().post("/api/v1/auth/login", Map.of("email", account.email(), "password", PASSWORD)),
                429,
                "too_many_attempts");
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
