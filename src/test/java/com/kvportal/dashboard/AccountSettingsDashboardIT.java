package com.kvportal.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import dev.samstevens.totp.code.DefaultCodeGenerator;
import dev.samstevens.totp.code.HashingAlgorithm;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/** The account page and the unverified banner in a real browser; mailed links opened from the mail sandbox's page. */
class AccountSettingsDashboardIT extends BrowserIntegration {

    private void openAccountPage() {
        browser.byId("account-email").click();
        browser.waitUntil(ExpectedConditions.urlToBe(baseUrl() + "/dashboard/account"));
        browser.visible("content");
    }

    @Test
    void shouldShowTheBannerUntilVerifiedAndSendANewLink() {
        String email = signUpUnverifiedInPage();

        assertThat(browser.visible("verify-banner").getText())
                .contains("Please verify " + email)
                .contains("creating API keys");
        // a key is refused until then, in words a person reads (no API path), and nothing is created
        submitKey("too early");
        WebElement refusal = browser.waitUntil(driver -> browser.all("#create-key-form [data-form-error]").stream()
                .filter(WebElement::isDisplayed)
                .findFirst()
                .orElse(null));
        assertThat(refusal.getText())
                .contains("verify your email address")
                .contains("Send a new link")
                .doesNotContain("/api/")
                .doesNotContain("POST");
        assertThat(browser.all("#keys-body tr")).isEmpty();
        browser.byId("resend-verification").click();
        browser.waitUntil(ExpectedConditions.textToBePresentInElementLocated(By.id("verify-banner"), "on its way"));
        checkLayout("keys-unverified");

        clickMailedLink(email, "Confirm your email address");
        browser.waitUntil(ExpectedConditions.textToBePresentInElementLocated(By.id("notice"), "is verified"));
        browser.byId("go-dashboard").click();
        awaitKeysPage();
        assertThat(browser.all("#verify-banner")).isEmpty();
    }

    @Test
    void shouldChangeThePasswordAndSignOutEverywhereElse() {
        String email = signUpInPage();
        Api elsewhere = new Api(baseUrl());
        elsewhere.post("/api/v1/auth/login", Map.of("email", email, "password", PASSWORD));
        openAccountPage();
        browser.waitUntil(driver -> browser.all("#sessions-body tr").size() == 2);
        checkLayout("account");

        browser.byId("end-other-sessions").click();
        browser.waitUntil(driver -> browser.all("#sessions-body tr").size() == 1);
        assertThat(elsewhere.get("/api/v1/session").status()).isEqualTo(401);

        browser.type("current-password", "not my password");
        browser.type("new-password", "a brand new passphrase");
        browser.byId("change-password").click();
        assertThat(browser.visible("current-password-error").getText()).contains("wrong");
        browser.type("current-password", PASSWORD);
        browser.type("new-password", "a brand new passphrase");
        browser.byId("change-password").click();
        browser.waitUntil(
                ExpectedConditions.textToBePresentInElementLocated(By.id("password-notice"), "password is changed"));
        assertThat(new Api(baseUrl())
                        .post("/api/v1/auth/login", Map.of("email", email, "password", "a brand new passphrase"))
                        .status())
                .isEqualTo(200);
    }

    @Test
    void shouldChangeTheEmailThroughTheLinkToTheNewAddress() {
        signUpInPage();
        openAccountPage();
        String newEmail = "moved-" + UUID.randomUUID() + "@example.com";

        browser.type("new-email", newEmail);
        browser.type("email-password", PASSWORD);
        browser.byId("change-email").click();
        browser.waitUntil(ExpectedConditions.textToBePresentInElementLocated(By.id("email-notice"), newEmail));

        clickMailedLink(newEmail, "Confirm your new email address");
        browser.waitUntil(ExpectedConditions.urlContains("/confirm-email-change?token="));
        browser.waitUntil(ExpectedConditions.textToBePresentInElementLocated(By.id("notice"), newEmail));
        checkLayout("confirm-email-change");
        browser.open(baseUrl() + "/dashboard/account");
        browser.visible("content");
        assertThat(browser.byId("current-email").getText()).isEqualTo(newEmail);
        assertThat(browser.byId("email-status").getText()).isEqualTo("Verified");
    }

    @Test
    void shouldTurnOnTwoStepLoginWithThePasswordAndTheQrCodeAndShowTheRecoveryCodesOnce() throws Exception {
        String email = signUpInPage();
        openAccountPage();

        browser.type("totp-start-password", "not my password");
        browser.byId("totp-start").click();
        assertThat(browser.visible("totp-start-password-error").getText()).contains("wrong");
        browser.type("totp-start-password", PASSWORD);
        browser.byId("totp-start").click();
        assertThat(browser.visible("totp-qr").getAttribute("src")).startsWith("data:image/png;base64,");
        String secret = browser.visible("totp-secret").getText();
        checkLayout("account-totp-setup");
        browser.type(
                "totp-code",
                new DefaultCodeGenerator(HashingAlgorithm.SHA1, 6)
                        .generate(secret, System.currentTimeMillis() / 30_000));
        browser.byId("totp-confirm").click();

        browser.visible("recovery-codes");
        assertThat(browser.all("#recovery-codes-list li")).hasSize(10);
        checkLayout("account-recovery-codes");
        browser.open(baseUrl() + "/dashboard/account");
        browser.visible("content");
        assertThat(browser.byId("recovery-codes").isDisplayed()).isFalse();
        assertThat(browser.visible("totp-disable-form").getText()).contains("On");
    }
}
