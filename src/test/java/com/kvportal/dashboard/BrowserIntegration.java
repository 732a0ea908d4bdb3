package com.kvportal.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.Browser;
import com.kvportal.support.BrowserCondition;
import com.kvportal.support.IntegrationTest;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The service and one real browser per test class; each test starts signed out, at desktop width. Without a browser
 * outside CI the tests are skipped ({@link BrowserCondition}) and none is started.
 */
@ExtendWith(BrowserCondition.class)
abstract class BrowserIntegration extends IntegrationTest {

    static final String PASSWORD = "correct horse battery staple";

    static Browser browser;

    @BeforeAll
    static void startBrowser() {
        if (Browser.skipReason().isEmpty()) {
            browser = Browser.start();
        }
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.close();
            browser = null;
        }
    }

    @BeforeEach
    void signedOutAtDesktopWidth() {
        browser.setWidth(Browser.DESKTOP_WIDTH);
        // a page without script, so that nothing can use the previous test's session while it is dropped
        browser.open(baseUrl() + "/assets/app.css");
        browser.driver().manage().deleteAllCookies();
    }

    /**
     * Signs up a new person through the page, verifies the address with the mailed link (as the person would, in
     * another tab) and waits for the keys page, reloaded; answers the email.
     */
    String signUpInPage() {
        String email = signUpUnverifiedInPage();
        Api.verifyEmail(baseUrl(), email);
        browser.driver().navigate().refresh();
        awaitKeysPage();
        return email;
    }

    /** Signs up a new person through the page, leaving the address unverified, and waits for the keys page. */
    String signUpUnverifiedInPage() {
        String email = "person-" + UUID.randomUUID() + "@example.com";
        browser.open(baseUrl() + "/signup");
        browser.type("email", email);
        browser.type("password", PASSWORD);
        browser.byId("submit").click();
        awaitKeysPage();
        return email;
    }

    void logInInPage(String email, String password) {
        browser.type("email", email);
        browser.type("password", password);
        browser.byId("submit").click();
    }

    /** Logs out through the top bar and waits for the log-in page. */
    void logOut() {
        browser.byId("logout").click();
        browser.waitUntil(ExpectedConditions.urlContains("/login"));
    }

    void awaitKeysPage() {
        browser.waitUntil(ExpectedConditions.urlToBe(baseUrl() + "/dashboard"));
        browser.visible("content");
    }

    /**
     * Types {@code value} into the field {@code id}, clicks {@code save}, and waits until the field's error (the element
     * {@code <id>-error}) reads {@code message}.
     */
    void saveRefused(String id, String value, String save, String message) {
        browser.type(id, value);
        browser.byId(save).click();
        browser.waitUntil(ExpectedConditions.textToBe(By.id(id + "-error"), message));
    }

    /** Fills and sends the create form; answers nothing, the caller waits for what it expects. */
    void submitKey(String name, String... permissions) {
        browser.type("key-name", name);
        if (permissions.length > 0) {
            for (String permission : new String[] {"read", "write", "admin"}) {
                WebElement box = browser.byId("perm-" + permission);
                if (box.isSelected() != java.util.Arrays.asList(permissions).contains(permission)) {
                    box.click();
                }
            }
        }
        browser.byId("create-key").click();
    }

    /** Creates a key in the page and answers the raw key that the page shows once. */
    String createKeyInPage(String name, String... permissions) {
        submitKey(name, permissions);
        browser.visible("new-key");
        String raw = browser.byId("new-key-value").getDomProperty("value");
        assertThat(raw).matches("kv_[0-9A-Za-z]{32}");
        return raw;
    }

    WebElement rowNamed(String name) {
        return browser.waitUntil(driver -> driver.findElements(By.cssSelector("#keys-body tr")).stream()
                .filter(row ->
                        // the name's line: a line of rate limits and credits may follow it
                        row.findElement(By.cssSelector("td.name"))
                                .getText()
                                .split("\n")[0]
                                .equals(name))
                .findFirst()
                .orElse(null));
    }

    /** The page at both widths: fits without sideways scrolling, every control named; screenshots saved. */
    void checkLayout(String name) {
        for (int width : new int[] {Browser.DESKTOP_WIDTH, Browser.PHONE_WIDTH}) {
            browser.setWidth(width);
            assertThat(browser.horizontalOverflow())
                    .as(() -> "%s at %d px sticks out sideways (%s) by"
                            .formatted(name, width, browser.overflowingElements()))
                    .isZero();
            assertThat(browser.unlabeledControls())
                    .as("controls without a label on %s", name)
                    .isEmpty();
            browser.screenshot(name + "-" + width);
        }
        browser.setWidth(Browser.DESKTOP_WIDTH);
    }

    /** Opens the mail sandbox's page for the address and clicks the link of the newest message with this subject. */
    protected void clickMailedLink(String email, String subject) {
        browser.open(baseUrl() + "/sandbox/mail?to=" + email);
        browser.waitUntil(driver -> {
            driver.navigate().refresh();
            return driver.findElements(By.cssSelector("article.mail")).stream()
                    .anyMatch(m -> m.findElement(By.className("mail-subject"))
                            .getText()
                            .equals(subject));
        });
        WebElement message = browser.all("article.mail").stream()
                .filter(m ->
                        m.findElement(By.className("mail-subject")).getText().equals(subject))
                .findFirst()
                .orElseThrow();
        message.findElement(By.className("mail-link")).click();
    }
}
