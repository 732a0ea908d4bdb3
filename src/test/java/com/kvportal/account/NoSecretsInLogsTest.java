package com.kvportal.account;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.Inbox;
import com.kvportal.support.IntegrationTest;
import dev.samstevens.totp.code.DefaultCodeGenerator;
import dev.samstevens.totp.code.HashingAlgorithm;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * Every secret of the account flows (link tokens, passwords, the TOTP secret, codes and recovery codes) stays out of
 * the service's log and out of the audit lines: the whole run's output is searched for each.
 */
@ExtendWith(OutputCaptureExtension.class)
class NoSecretsInLogsTest extends IntegrationTest {

    @Test
    void shouldWriteNoTokenCodeSecretOrPasswordToTheLogOrTheAuditLog(CapturedOutput output) throws Exception {
        List<String> secrets = new ArrayList<>();
        String password = "first secret passphrase " + UUID.randomUUID();
        String email = "secrets-" + UUID.randomUUID() + "@example.com";
        Api session = api();
        session.post("/api/v1/auth/signup", Map.of("email", email, "password", password));
        secrets.add(password);
        Inbox inbox = new Inbox(baseUrl(), email);

        String verifyToken = Inbox.token(inbox.awaitMessage("Confirm your email address"));
        secrets.add(verifyToken);
        api().post("/api/v1/auth/verify-email", Map.of("token", verifyToken));
        api().post("/api/v1/auth/verify-email", Map.of("token", verifyToken));

        api().post("/api/v1/auth/password-reset", Map.of("email", email));
        String resetToken = Inbox.token(inbox.awaitMessage("Reset your password"));
        secrets.add(resetToken);
        String weak = "weak" + UUID.randomUUID().toString().substring(0, 4);
        secrets.add(weak);
        api().post("/api/v1/auth/password-reset/confirm", Map.of("token", resetToken, "password", weak));
        String second = "second secret passphrase " + UUID.randomUUID();
        secrets.add(second);
        api().post("/api/v1/auth/password-reset/confirm", Map.of("token", resetToken, "password", second));

        session = api();
        session.post("/api/v1/auth/login", Map.of("email", email, "password", "wrong " + second));
        session.post("/api/v1/auth/login", Map.of("email", email, "password", second));
        String third = "third secret passphrase " + UUID.randomUUID();
        secrets.add(third);
        session.put("/api/v1/account/password", Map.of("current_password", "wrong " + second, "new_password", third));
        session.put("/api/v1/account/password", Map.of("current_password", second, "new_password", third));

        String newEmail = "moved-" + UUID.randomUUID() + "@example.com";
        session.put("/api/v1/account/email", Map.of("new_email", newEmail, "current_password", third));
        String changeToken = Inbox.token(new Inbox(baseUrl(), newEmail).awaitMessage("Confirm your new email address"));
        secrets.add(changeToken);
        api().post("/api/v1/auth/email-change/confirm", Map.of("token", changeToken));

        String secret = session.post("/api/v1/account/totp", Map.of("current_password", third))
                .json()
                .get("secret")
                .asString();
        secrets.add(secret);
        DefaultCodeGenerator codes = new DefaultCodeGenerator(HashingAlgorithm.SHA1, 6);
        long step = System.currentTimeMillis() / 30_000;
        String firstCode = codes.generate(secret, step - 1);
        List<String> recovery = new ArrayList<>();
        session.post("/api/v1/account/totp/confirm", Map.of("code", firstCode))
                .json()
                .get("recovery_codes")
                .forEach(c -> recovery.add(c.asString()));
        secrets.addAll(recovery);
        Api browser = api();
        browser.post("/api/v1/auth/login", Map.of("email", newEmail, "password", third));
        browser.post("/api/v1/auth/login/totp", Map.of("code", "999999"));
        browser.post("/api/v1/auth/login/totp", Map.of("recovery_code", recovery.get(0)));
        Thread.sleep(1_000);

        String audit = String.join(
                "\n",
                jdbc.sql("select a::text from audit_events a")
                        .query(String.class)
                        .list());
        for (String value : secrets) {
            assertThat(output.getAll()).as("the log").doesNotContain(value);
            assertThat(audit).as("the audit log").doesNotContain(value);
        }
        // codes are short: only as themselves, not as part of ids or timestamps, in lines that mention them
        assertThat(output.getAll()).doesNotContain("code=" + firstCode).doesNotContain("\"" + firstCode + "\"");
        assertThat(audit).contains("customer.recovery_code_used", "customer.password_reset", "customer.totp_enabled");
    }
}
