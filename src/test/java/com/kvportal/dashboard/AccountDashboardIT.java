package com.kvportal.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Browser;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

/** Signing up, in and out, session expiry and projects, in a real browser. */
class AccountDashboardIT extends BrowserIntegration {

    @Test
    void shouldLeadAFirstVisitFromTheRootToTheLogInPageWithoutSayingThatASessionEnded() {
        browser.open(baseUrl() + "/");

        browser.waitUntil(ExpectedConditions.urlToBe(baseUrl() + "/login?next=%2Fdashboard"));
        browser.visible("login-form");
        assertThat(browser.byId("notice").isDisplayed()).isFalse();
        assertThat(browser.driver().getPageSource()).doesNotContain("session has ended");
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
        browser.waitUntil(ExpectedConditions.urlToBe(baseUrl() + "/login?next=%2Fdashboard"));
        assertThat(browser.byId("notice").isDisplayed()).isFalse();

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
    void shouldShowAPageNotFoundWithAWayBackForAnUnknownDashboardAddress() {
        browser.open(baseUrl() + "/dashboard/typo");

        assertThat(browser.visible("title").getText()).isEqualTo("Page not found");
        assertThat(browser.driver().getPageSource()).doesNotContain("\"code\"");
        checkLayout("not-found");
        browser.byId("back-to-dashboard").click();
        browser.waitUntil(ExpectedConditions.urlToBe(baseUrl() + "/login?next=%2Fdashboard"));
    }

    /**
     * The account page (password, sessions, two-step login) from the main navigation at every width; at 1440 px the top
     * bar is one row and names the role once.
     */
    @Test
    void shouldReachEveryPageFromTheTopBarAtBothWidthsWithTheBarOnOneRowOnADesktop() {
        signUpInPage();
        // one row: every part of the bar starts above the end of every other
        assertThat(
                        (Boolean)
                                browser.script(
                                        """
                        const boxes = [...document.querySelector('.topbar-inner').children]
                          .filter((c) => c.offsetParent !== null).map((c) => c.getBoundingClientRect());
                        return Math.max(...boxes.map((b) => b.top)) < Math.min(...boxes.map((b) => b.bottom));"""))
                .as("the top bar on one row at 1440 px")
                .isTrue();
        String bar = browser.driver().findElement(By.className("topbar")).getText();
        assertThat(Pattern.compile("\\bowner\\b").matcher(bar).results().count())
                .as("the role, once: " + bar)
                .isEqualTo(1);

        for (String[] page : new String[][] {
            {"Billing", "/dashboard/billing"},
            {"Webhooks", "/dashboard/webhooks"},
            {"Activity", "/dashboard/activity"},
            {"Members", "/dashboard/members"},
            {"Account", "/dashboard/account"},
            {"API keys", "/dashboard"}
        }) {
            browser.setWidth(Browser.PHONE_WIDTH);
            browser.driver().findElement(By.linkText(page[0])).click();
            browser.waitUntil(ExpectedConditions.urlToBe(baseUrl() + page[1]));
            browser.visible("content");
            checkLayout("page-" + page[1].substring(1).replace('/', '-'));
        }
        browser.open(baseUrl() + "/dashboard/account");
        browser.setWidth(Browser.PHONE_WIDTH);
        browser.visible("content");
        for (String id : new String[] {"password-form", "sessions-table", "totp-start"}) {
            WebElement section = browser.byId(id);
            browser.script("arguments[0].scrollIntoView()", section);
            assertThat(section.isDisplayed()).as(id).isTrue();
        }
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
        browser.waitUntil(ExpectedConditions.urlToBe(baseUrl() + "/login?next=%2Fdashboard%2Fbilling"));
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
