package com.kvportal.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import dev.samstevens.totp.code.DefaultCodeGenerator;
import dev.samstevens.totp.code.HashingAlgorithm;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The flows that mail drives, in a real browser: each link is opened from the mail sandbox's page, as a person
 * would click it.
 */
class RecoveryDashboardIT extends BrowserIntegration {

    @Test
    void shouldResetAForgottenPasswordThroughTheMailedLink() {
        String email = signUpInPage();
        logOut();

        browser.byId("to-forgot-password").click();
        browser.waitUntil(ExpectedConditions.urlToBe(baseUrl() + "/forgot-password"));
        checkLayout("forgot-password");
        browser.type("email", email);
        browser.byId("submit").click();
        assertThat(browser.visible("notice").getText()).contains("is on its way");

        clickMailedLink(email, "Reset your password");
        browser.waitUntil(ExpectedConditions.urlContains("/reset-password?token="));
        checkLayout("reset-password");
        browser.type("password", "short");
        browser.byId("submit").click();
        assertThat(browser.visible("password-error").getText()).contains("12 to 128");
        browser.type("password", "a brand new passphrase");
        browser.byId("submit").click();
        assertThat(browser.visible("notice").getText()).contains("Your password is set");

        browser.byId("go-login").click();
        browser.waitUntil(ExpectedConditions.urlContains("/login"));
        logInInPage(email, "a brand new passphrase");
        awaitKeysPage();
        assertThat(browser.scriptErrors()).isEmpty();
    }

    @Test
    void shouldSayWhenAResetLinkWasUsedAlready() {
        String email = signUpInPage();
        logOut();
        browser.open(baseUrl() + "/forgot-password");
        browser.type("email", email);
        browser.byId("submit").click();
        browser.waitUntil(ExpectedConditions.textToBePresentInElementLocated(By.id("notice"), "is on its way"));
        clickMailedLink(email, "Reset your password");
        browser.waitUntil(ExpectedConditions.urlContains("/reset-password?token="));
        String link = browser.currentUrl();
        browser.type("password", "a brand new passphrase");
        browser.byId("submit").click();
        browser.waitUntil(ExpectedConditions.textToBePresentInElementLocated(By.id("notice"), "Your password is set"));

        browser.open(link);
        browser.type("password", "another new passphrase");
        browser.byId("submit").click();

        assertThat(browser.visible("notice").getText()).contains("not valid any more");
    }

    @Test
    void shouldVerifyTheEmailAddressThroughTheMailedLink() {
        String email = signUpUnverifiedInPage();

        clickMailedLink(email, "Confirm your email address");

        browser.waitUntil(ExpectedConditions.urlContains("/verify-email?token="));
        browser.waitUntil(ExpectedConditions.textToBePresentInElementLocated(By.id("notice"), "is verified"));
        checkLayout("verify-email");
        Api api = new Api(baseUrl());
        api.post("/api/v1/auth/login", Map.of("email", email, "password", PASSWORD));
        assertThat(api.get("/api/v1/session").json().get("email_verified").asBoolean())
                .isTrue();
    }

    @Test
    void shouldAskForTheSecondStepAtLoginWhenTwoStepLoginIsOn() throws Exception {
        String email = signUpInPage();
        logOut();
        // turned on through the API (AccountSettingsDashboardIT turns it on in the page)
        Api api = new Api(baseUrl());
        api.post("/api/v1/auth/login", Map.of("email", email, "password", PASSWORD));
        String secret = api.post("/api/v1/account/totp", Map.of("current_password", PASSWORD))
                .json()
                .get("secret")
                .asString();
        long step = System.currentTimeMillis() / 30_000;
        DefaultCodeGenerator codes = new DefaultCodeGenerator(HashingAlgorithm.SHA1, 6);
        api.post("/api/v1/account/totp/confirm", Map.of("code", codes.generate(secret, step - 1)));

        logInInPage(email, PASSWORD);
        browser.visible("totp-form");
        checkLayout("login-second-step");
        browser.type("code", "000000");
        browser.byId("totp-submit").click();
        assertThat(browser.visible("code-error").getText()).isNotBlank();
        browser.type("code", codes.generate(secret, step));
        browser.byId("totp-submit").click();

        awaitKeysPage();
        assertThat(browser.byId("account-email").getText()).isEqualTo(email);
    }
}
