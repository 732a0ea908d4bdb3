package com.kvportal.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

/** Signing up, in and out, session expiry and projects, in a real browser. */
class AccountDashboardIT extends BrowserIntegration {

    @Test
    void shouldLeadFromTheRootToTheLogInPageWhenSignedOut() {
        browser.open(baseUrl() + "/");

        browser.waitUntil(ExpectedConditions.urlToBe(baseUrl() + "/login?reason=expired&next=%2Fdashboard"));
        assertThat(browser.visible("notice").getText()).contains("Your session has ended");
        checkLayout("login");

        browser.byId("to-signup").click();
        browser.waitUntil(ExpectedConditions.urlContains("/signup"));
        browser.visible("signup-form");
        checkLayout("signup");
    }

    @Test
    void shouldLogOutAndLogInAgain() {
        String email = signUpInPage();
        assertThat(browser.byId("account-email").getText()).isEqualTo(email);

        browser.byId("logout").click();

        browser.waitUntil(ExpectedConditions.urlToBe(baseUrl() + "/login?reason=signed_out"));
        assertThat(browser.visible("notice").getText()).isEqualTo("You have been logged out.");
        browser.open(baseUrl() + "/dashboard");
        browser.waitUntil(ExpectedConditions.urlContains("/login?reason=expired"));

        logInInPage(email, "not the password at all");
        browser.waitUntil(ExpectedConditions.textToBe(
                By.cssSelector("#login-form [data-form-error]"), "The email address or the password is wrong."));
        assertThat(browser.currentUrl()).contains("/login");
        browser.screenshot("login-failed-1440");

        logInInPage(email, PASSWORD);
        awaitKeysPage();
        assertThat(browser.byId("account-email").getText()).isEqualTo(email);
    }

    @Test
    void shouldShowSignupErrorsNextToTheirFields() {
        String email = signUpInPage();
        logOut();
        browser.open(baseUrl() + "/signup");

        browser.type("email", "not-an-email");
        browser.type("password", "short");
        browser.byId("submit").click();

        assertThat(browser.visible("email-error").getText()).contains("Email must be a valid email address");
        assertThat(browser.byId("password-error").getText()).isEqualTo("Password must be 12 to 128 characters.");
        browser.screenshot("signup-errors-1440");

        browser.type("email", email.toUpperCase());
        browser.type("password", PASSWORD);
        browser.byId("submit").click();
        browser.waitUntil(ExpectedConditions.textMatches(By.id("email-error"), Pattern.compile(".*already.*")));
        assertThat(browser.byId("password-error").isDisplayed()).isFalse();
    }

    @Test
    void shouldSendAnExpiredSessionBackToLogInAndReturnAfterwards() {
        String email = signUpInPage();
        browser.type("key-name", "after expiry");

        jdbc.sql("delete from spring_session").update();
        browser.byId("create-key").click();

        browser.waitUntil(ExpectedConditions.urlToBe(baseUrl() + "/login?reason=expired&next=%2Fdashboard"));
        assertThat(browser.visible("notice").getText()).contains("Your session has ended");
        logInInPage(email, PASSWORD);
        awaitKeysPage();
        browser.visible("keys-empty");

        browser.driver().manage().deleteAllCookies();
        browser.open(baseUrl() + "/dashboard/billing");
        browser.waitUntil(ExpectedConditions.urlToBe(baseUrl() + "/login?reason=expired&next=%2Fdashboard%2Fbilling"));
        logInInPage(email, PASSWORD);
        browser.waitUntil(ExpectedConditions.urlToBe(baseUrl() + "/dashboard/billing"));
    }

    @Test
    void shouldCreateAProjectSwitchToItAndBack() {
        signUpInPage();
        createKeyInPage("default key");

        browser.byId("new-project").click();
        browser.visible("project-dialog");
        browser.byId("project-form").submit();
        assertThat(browser.visible("project-name-error").getText()).isEqualTo("Project name is required.");
        browser.screenshot("project-dialog-error-1440");
        browser.type("project-name", "<b>Staging</b>");
        browser.byId("project-form")
                .findElement(By.cssSelector("button[type=submit]"))
                .click();

        browser.waitForHidden("project-dialog");
        Select projects = new Select(browser.byId("project-select"));
        browser.waitUntil(driver -> projects.getFirstSelectedOption().getText().equals("<b>Staging</b>"));
        browser.visible("keys-empty");
        assertThat(browser.byId("new-key").isDisplayed()).isFalse();
        assertThat(browser.byId("project-title").getText()).isEqualTo("<b>Staging</b>");
        assertThat(browser.all("#project-title b")).isEmpty();

        projects.selectByVisibleText("Default project");
        rowNamed("default key");
        assertThat(browser.byId("project-title").getText()).isEqualTo("Default project");

        browser.driver().navigate().refresh();
        rowNamed("default key");
        assertThat(new Select(browser.byId("project-select")).getOptions()).hasSize(2);
    }
}
