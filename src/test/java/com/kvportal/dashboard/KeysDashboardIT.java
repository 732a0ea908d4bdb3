package com.kvportal.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.kvportal.support.Api;
import com.kvportal.support.Browser;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import tools.jackson.databind.JsonNode;

/** The API keys page in a real browser: create, see once, copy, list, revoke, and its error messages. */
class KeysDashboardIT extends BrowserIntegration {

    @Test
    void shouldShowANewKeyOnlyOnceAndRefuseItAfterItIsRevokedInThePage() {
        signUpInPage();
        assertThat(browser.visible("keys-empty").getText()).contains("No API keys yet");
        browser.screenshot("keys-empty-1440");

        String raw = createKeyInPage("ci deploy", "read", "write");

        assertThat(browser.byId("new-key-hint").getText()).contains("only once");
        assertThat(browser.byId("keys-table").getText()).doesNotContain(raw);
        WebElement row = rowNamed("ci deploy");
        assertThat(row.getText())
                .contains("read", "write")
                .doesNotContain("admin")
                .contains("Never");
        assertThat(browser.byId("key-count").getText()).isEqualTo("1 key");
        checkLayout("keys-new-key");

        Api.Response verified = Api.withKey(baseUrl(), raw).post("/api/v1/api-keys/verify");
        assertThat(verified.status()).as(verified.toString()).isEqualTo(200);
        assertThat(verified.json().get("permissions").toString()).isEqualTo("[\"read\",\"write\"]");

        browser.driver().navigate().refresh();
        rowNamed("ci deploy");
        assertThat(browser.byId("new-key").isDisplayed()).isFalse();
        assertThat(browser.driver().getPageSource()).doesNotContain(raw);
        checkLayout("keys-list");

        rowNamed("ci deploy")
                .findElement(By.cssSelector("[data-action=revoke]"))
                .click();
        assertThat(browser.visible("revoke-dialog").getText()).contains("ci deploy", "refused immediately");
        browser.screenshot("keys-revoke-dialog-1440");
        browser.byId("revoke-confirm").click();

        browser.visible("keys-empty");
        assertThat(browser.byId("list-status").getText()).contains("was revoked");
        Api.Response refused = Api.withKey(baseUrl(), raw).post("/api/v1/api-keys/verify");
        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.code()).isEqualTo("api_key_revoked");
    }

    @Test
    void shouldShowAKeySwitchedOffAsDisabledInTheList() {
        signUpInPage();
        Api admin = Api.withKey(baseUrl(), createKeyInPage("automation", "admin"));
        String workerId = admin.newKeyId("worker");
        Api.Response disabled = admin.patch("/api/v1/api-keys/" + workerId, Map.of("enabled", false));
        assertThat(disabled.status()).as(disabled.toString()).isEqualTo(200);

        browser.driver().navigate().refresh();
        awaitKeysPage();
        assertThat(rowNamed("worker").findElements(By.cssSelector("[data-disabled]")))
                .singleElement()
                .extracting(WebElement::getText)
                .isEqualTo("Disabled");
        assertThat(rowNamed("automation").findElements(By.cssSelector("[data-disabled]")))
                .isEmpty();
        checkLayout("keys-disabled");
    }

    @Test
    void shouldSwitchAKeyOffOnlyAfterAConfirmationAndSaveItsAddressesAndExternalId() {
        signUpInPage();
        Api admin = Api.withKey(baseUrl(), createKeyInPage("automation", "admin"));
        browser.byId("dismiss-key").click();
        String workerId = admin.newKeyId("worker");
        browser.driver().navigate().refresh();
        awaitKeysPage();
        browser.setWidth(Browser.PHONE_WIDTH);

        rowNamed("worker").findElement(By.cssSelector("[data-action=edit]")).click();
        browser.visible("edit-dialog");
        assertThat(browser.byId("edit-enabled").isSelected()).isTrue();
        browser.type("edit-external-id", "user_1234");
        browser.type("edit-allowed-ips", "192.0.2.0/24\n2001:DB8::/32");
        browser.byId("edit-enabled").click();
        browser.byId("edit-save").click();
        browser.waitUntil(ExpectedConditions.alertIsPresent()).dismiss();
        assertThat(browser.byId("edit-dialog").isDisplayed())
                .as("still open, nothing sent")
                .isTrue();
        assertThat(key(admin, workerId).get("enabled").asBoolean()).isTrue();
        assertThat(key(admin, workerId).get("external_id").isNull()).isTrue();

        browser.byId("edit-save").click();
        browser.waitUntil(ExpectedConditions.alertIsPresent()).accept();
        browser.waitForHidden("edit-dialog");
        browser.waitUntil(driver -> !rowNamed("worker")
                .findElements(By.cssSelector("[data-disabled]"))
                .isEmpty());
        JsonNode saved = key(admin, workerId);
        assertThat(saved.get("enabled").asBoolean()).isFalse();
        assertThat(saved.get("external_id").asString()).isEqualTo("user_1234");
        assertThat(saved.get("allowed_ips").toString()).isEqualTo("[\"192.0.2.0/24\",\"2001:db8::/32\"]");
        checkLayout("keys-switched-off");
    }

    private static JsonNode key(Api admin, String id) {
        for (JsonNode key : admin.keys()) {
            if (key.get("id").asString().equals(id)) {
                return key;
            }
        }
        throw new AssertionError("no key " + id);
    }

    @Test
    void shouldCopyTheNewKeyToTheClipboard() {
        signUpInPage();
        browser.driver()
                .executeCdpCommand(
                        "Browser.grantPermissions",
                        Map.of(
                                "origin",
                                baseUrl(),
                                "permissions",
                                List.of("clipboardReadWrite", "clipboardSanitizedWrite")));
        String raw = createKeyInPage("clipboard");

        browser.byId("copy-key").click();

        browser.waitUntil(ExpectedConditions.textToBe(By.id("copy-status"), "Copied to the clipboard."));
        Object clipboard = browser.driver()
                .executeAsyncScript(
                        "const done = arguments[0]; navigator.clipboard.readText().then(done, e => done('error: ' + e));");
        assertThat(clipboard).isEqualTo(raw);

        browser.byId("dismiss-key").click();
        browser.waitForHidden("new-key");
        assertThat(browser.driver().getPageSource()).doesNotContain(raw);
    }

    @Test
    void shouldShowTheApiValidationErrorsNextToTheFieldsAtFault() {
        signUpInPage();

        browser.byId("perm-write").click(); // no permission at all
        browser.byId("create-key").click(); // and no name

        WebElement nameError = browser.visible("key-name-error");
        assertThat(nameError.getText()).isEqualTo("Name is required.");
        assertThat(browser.byId("key-permissions-error").getText())
                .isEqualTo("Permissions must contain at least one of read, write, admin.");
        assertThat(browser.byId("key-name").getDomAttribute("aria-invalid")).isEqualTo("true");
        assertThat(browser.driver().switchTo().activeElement().getDomAttribute("id"))
                .isEqualTo("key-name");
        browser.screenshot("keys-validation-1440");

        submitKey("x".repeat(101), "read");

        browser.waitUntil(ExpectedConditions.textToBe(By.id("key-name-error"), "Name must be at most 100 characters."));
        assertThat(browser.byId("key-permissions-error").isDisplayed()).isFalse();
        assertThat(browser.all("#keys-body tr")).isEmpty();

        submitKey("x".repeat(100), "read");
        browser.visible("new-key");
        browser.waitForHidden("key-name-error");
        assertThat(browser.byId("key-name").getDomAttribute("aria-invalid")).isNull();
    }

    @Test
    void shouldCreateAKeyThatExpiresOnAChosenDateAndExplainADateInThePast() {
        signUpInPage();
        new Select(browser.byId("key-expiry")).selectByVisibleText("On a date…");
        browser.visible("key-expiry-date");
        submitKey("dated");
        assertThat(browser.visible("key-expiry-error").getText()).isEqualTo("Choose the date the key expires.");

        setDate("key-expiry-date", LocalDate.now().minusDays(1));
        browser.byId("create-key").click();
        browser.waitUntil(ExpectedConditions.textToBe(By.id("key-expiry-error"), "Expiry must be in the future."));

        LocalDate chosen = LocalDate.now().plusDays(30);
        setDate("key-expiry-date", chosen);
        browser.byId("create-key").click();
        browser.visible("new-key");
        String expires = rowNamed("dated")
                .findElement(By.cssSelector("td[data-label=Expires] time"))
                .getDomAttribute("datetime");
        assertThat(OffsetDateTime.parse(expires)
                        .atZoneSameInstant(ZoneId.systemDefault())
                        .toLocalDate())
                .isEqualTo(chosen);
    }

    @Test
    void shouldShowAKeyNamedLikeMarkupLiterallyWithoutRunningIt() {
        String markup = "<img src=x onerror=alert(1)>";
        signUpInPage();

        createKeyInPage(markup);

        assertThat(rowNamed(markup).findElement(By.cssSelector("td.name")).getText())
                .isEqualTo(markup);
        assertThat(browser.byId("new-key-title").getText()).contains(markup);
        assertThat(browser.all("img")).isEmpty();
        assertNoAlert();

        browser.driver().navigate().refresh();
        assertThat(rowNamed(markup).getText()).contains(markup);
        rowNamed(markup).findElement(By.cssSelector("[data-action=revoke]")).click();
        assertThat(browser.visible("revoke-name").getText()).isEqualTo(markup);
        assertThat(browser.all("img")).isEmpty();
        assertNoAlert();
    }

    @Test
    void shouldCreateAndKeepAKeyUsingTheKeyboardOnly() {
        signUpInPage();
        WebElement name = browser.visible("key-name");
        name.click();
        name.sendKeys("typed", Keys.ENTER);
        browser.visible("new-key");
        assertThat(browser.driver().switchTo().activeElement().getDomAttribute("id"))
                .isEqualTo("new-key-value");

        WebElement revoke = rowNamed("typed").findElement(By.cssSelector("[data-action=revoke]"));
        assertThat(revoke.getDomAttribute("aria-label")).isEqualTo("Revoke key typed");
        revoke.sendKeys(Keys.ENTER);
        browser.visible("revoke-dialog");
        // the safe choice has the focus, and Escape backs out
        assertThat(browser.driver().switchTo().activeElement().getText()).isEqualTo("Cancel");
        browser.driver().switchTo().activeElement().sendKeys(Keys.ESCAPE);
        browser.waitForHidden("revoke-dialog");
        assertThat(rowNamed("typed").isDisplayed()).isTrue();
    }

    @Test
    void shouldMarkAnExpiredKey() {
        signUpInPage();
        createKeyInPage("short lived");
        jdbc.sql("update api_keys set expires_at = now() - interval '1 minute' where name = 'short lived'")
                .update();

        browser.driver().navigate().refresh();

        assertThat(rowNamed("short lived")
                        .findElement(By.cssSelector("[data-expired]"))
                        .getText())
                .isEqualTo("Expired");
    }

    /** Date inputs take typed dates in the browser's locale; setting the value is what a picker does. */
    private static void setDate(String id, LocalDate date) {
        browser.script("arguments[0].value = arguments[1];", browser.byId(id), date.toString());
    }

    private static void assertNoAlert() {
        assertThatThrownBy(() -> browser.driver().switchTo().alert()).isInstanceOf(NoAlertPresentException.class);
    }
}
