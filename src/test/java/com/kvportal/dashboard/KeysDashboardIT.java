package com.kvportal.dashboard;

import static com.kvportal.support.Problems.assertProblem;
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
        assertProblem(refused, 401, "api_key_revoked");
    }

    @Test
    void shouldShowAKeySwitchedOffAsDisabledInTheList() {
        Api admin = signUpWithAnAdminKeyInPage();
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
        Api admin = signUpWithAnAdminKeyInPage();
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

    @Test
    void shouldCreateAKeyWithMetadataRowsAndShowThemBackAfterAReload() {
        signUpInPage();
        addMetadataRow("key", "plan", "text", "pro");
        addMetadataRow("key", "seats", "number", "5");
        addMetadataRow("key", "beta", "true / false", "true");
        addMetadataRow("key", "note", "null", null);
        checkLayout("keys-create-metadata");
        String raw = createKeyInPage("tenant");
        assertThat(browser.all("#key-metadata [data-metadata]"))
                .as("the form starts afresh")
                .isEmpty();

        JsonNode metadata = Api.withKey(baseUrl(), raw)
                .post("/api/v1/api-keys/verify")
                .json()
                .get("metadata");
        // each value keeps its JSON type: a string, a number, a boolean, null
        assertThat(metadata).isEqualTo(Api.JSON.readTree("{\"plan\":\"pro\",\"seats\":5,\"beta\":true,\"note\":null}"));

        browser.driver().navigate().refresh();
        awaitKeysPage();
        browser.setWidth(Browser.PHONE_WIDTH);
        rowNamed("tenant").findElement(By.cssSelector("[data-action=edit]")).click();
        browser.visible("edit-dialog");
        assertThat(metadataRows("edit"))
                .containsExactlyInAnyOrder("plan string pro", "seats number 5", "beta boolean true", "note null ");
        browser.screenshot("keys-edit-metadata-375");
        assertThat(browser.horizontalOverflow()).isZero();

        // remove a row, change a value, and save: the metadata is replaced as a whole
        metadataRow("edit", "note")
                .findElement(By.cssSelector("[data-meta-remove]"))
                .click();
        WebElement seats = metadataRow("edit", "seats").findElement(By.cssSelector("[data-meta-value]"));
        seats.clear();
        seats.sendKeys("6.5");
        browser.byId("edit-save").click();
        browser.waitForHidden("edit-dialog");
        JsonNode after = Api.withKey(baseUrl(), raw)
                .post("/api/v1/api-keys/verify")
                .json()
                .get("metadata");
        assertThat(after.properties()).hasSize(3);
        assertThat(after.get("seats").asDouble()).isEqualTo(6.5);
        assertThat(after.get("plan").asString()).isEqualTo("pro");
        assertThat(after.has("note")).isFalse();
        assertThat(browser.scriptErrors()).isEmpty();
    }

    @Test
    void shouldNameABadMetadataRowAndSaveNothing() {
        signUpInPage();
        addMetadataRow("key", "seats", "number", "five");
        submitKey("tenant");
        assertThat(browser.visible("key-metadata-error").getText())
                .isEqualTo("Row 1: “five” is not a number (e.g. 42, -3 or 2.5).");
        assertThat(browser.all("#keys-body tr")).isEmpty();
        assertThat(browser.byId("new-key").isDisplayed()).isFalse();

        new Select(browser.all("#key-metadata [data-meta-type]").get(0)).selectByVisibleText("true / false");
        browser.byId("create-key").click();
        browser.waitUntil(ExpectedConditions.textToBe(
                By.id("key-metadata-error"), "Row 1: a true / false value must be true or false."));
        assertThat(browser.all("#keys-body tr")).isEmpty();
        checkLayout("keys-metadata-error");

        // in the editor: a name used twice is refused before anything is asked or sent
        browser.all("#key-metadata [data-meta-remove]").get(0).click();
        Api admin = Api.withKey(baseUrl(), createKeyInPage("automation", "admin"));
        browser.byId("dismiss-key").click();
        String workerId = admin.newKeyId("worker");
        browser.driver().navigate().refresh();
        awaitKeysPage();
        rowNamed("worker").findElement(By.cssSelector("[data-action=edit]")).click();
        browser.visible("edit-dialog");
        addMetadataRow("edit", "plan", "text", "pro");
        addMetadataRow("edit", "plan", "text", "team");
        browser.byId("edit-enabled").click(); // would ask for a confirmation, were the rows right
        browser.byId("edit-save").click();
        assertThat(browser.visible("edit-metadata-error").getText()).isEqualTo("Row 2: the name “plan” is used twice.");
        assertNoAlert();
        assertThat(browser.byId("edit-dialog").isDisplayed()).isTrue();
        JsonNode unchanged = key(admin, workerId);
        assertThat(unchanged.get("metadata").toString()).isEqualTo("{}");
        assertThat(unchanged.get("enabled").asBoolean()).isTrue();
    }

    @Test
    void shouldShowRateLimitsWithTheirWindowsInWordsAndCreditsWithTheNextRefill() {
        Api admin = signUpWithAnAdminKeyInPage();
        String workerId = admin.newKeyId("worker");
        Api.Response shaped = admin.patch(
                "/api/v1/api-keys/" + workerId,
                Map.of(
                        "ratelimits",
                        List.of(
                                Map.of("name", "per-minute", "limit", 100, "duration_ms", 60_000),
                                Map.of("name", "burst", "limit", 5, "duration_ms", 90_000)),
                        "credits",
                        Map.of("remaining", 1000, "refill", Map.of("amount", 1000, "interval", "day"))));
        assertThat(shaped.status()).as(shaped.toString()).isEqualTo(200);
        browser.driver().navigate().refresh();
        awaitKeysPage();

        String summary =
                rowNamed("worker").findElement(By.cssSelector("[data-limits]")).getText();
        assertThat(summary)
                .startsWith(
                        "100 per minute · 5 per 90 seconds · 1,000 credits left, refilled to 1,000 every day (next ")
                .endsWith(")");

        rowNamed("worker").findElement(By.cssSelector("[data-action=edit]")).click();
        browser.visible("edit-dialog");
        assertThat(browser.byId("edit-credits-now").getText())
                .startsWith("1,000 credits left, refilled to 1,000 every day (next ");
        browser.byId("edit-add-ratelimit").click();
        List<WebElement> names = browser.all("#edit-ratelimits [data-name]");
        names.get(2).sendKeys("per-day");
        new Select(browser.all("#edit-ratelimits [data-window]").get(2)).selectByVisibleText("per day");
        new Select(browser.byId("edit-credits-refill")).selectByValue("month");
        browser.type("edit-credits-day", "15");
        checkLayout("keys-edit-limits");
        browser.byId("edit-save").click();
        browser.waitForHidden("edit-dialog");
        browser.waitUntil(driver -> rowNamed("worker")
                .findElement(By.cssSelector("[data-limits]"))
                .getText()
                .contains("100 per day"));
        assertThat(rowNamed("worker")
                        .findElement(By.cssSelector("[data-limits]"))
                        .getText())
                .contains("every month on day 15 (next ");
        JsonNode saved = key(admin, workerId);
        assertThat(saved.get("ratelimits").toString())
                .isEqualTo("[{\"name\":\"per-minute\",\"limit\":100,\"duration_ms\":60000},"
                        + "{\"name\":\"burst\",\"limit\":5,\"duration_ms\":90000},"
                        + "{\"name\":\"per-day\",\"limit\":100,\"duration_ms\":86400000}]");
        assertThat(saved.get("credits").get("refill").toString())
                .isEqualTo("{\"amount\":1000,\"interval\":\"month\",\"day_of_month\":15}");
        assertThat(saved.get("credits").get("next_refill_at").asString()).endsWith("-15T00:00:00Z");
    }

    @Test
    void shouldFitTheTopBarOnOneRowAtDesktopWidthWhateverTheEmail() {
        signUpInPage(); // person-<uuid>@example.com: 55 characters
        for (String page : new String[] {"/dashboard", "/dashboard/verifications", "/dashboard/members"}) {
            browser.open(baseUrl() + page);
            browser.visible("content");
            Object rows = browser.script(
                    """
                    const tops = [...document.querySelectorAll('.topbar-inner > *')]
                        .filter((e) => e.offsetParent !== null).map((e) => e.getBoundingClientRect());
                    return tops.filter((r) => r.top >= tops[0].bottom).length;""");
            assertThat(((Number) rows).intValue())
                    .as("items of the top bar of %s below its first row at 1440 px", page)
                    .isZero();
        }
        browser.screenshot("topbar-1440");
    }

    /** Adds a metadata row to the create form ("key") or the editor ("edit"); a null value leaves it empty. */
    /** Signs up in the page and creates the key "automation" there (its dialog dismissed): an API client with it. */
    private Api signUpWithAnAdminKeyInPage() {
        signUpInPage();
        Api admin = Api.withKey(baseUrl(), createKeyInPage("automation", "admin"));
        browser.byId("dismiss-key").click();
        return admin;
    }

    private static void addMetadataRow(String form, String name, String type, String value) {
        browser.byId(form + "-add-metadata").click();
        List<WebElement> rows = browser.all("#" + form + "-metadata [data-metadata]");
        WebElement row = rows.get(rows.size() - 1);
        row.findElement(By.cssSelector("[data-meta-name]")).sendKeys(name);
        new Select(row.findElement(By.cssSelector("[data-meta-type]"))).selectByVisibleText(type);
        if (value != null) {
            row.findElement(By.cssSelector("[data-meta-value]")).sendKeys(value);
        }
    }

    private static WebElement metadataRow(String form, String name) {
        return browser.all("#" + form + "-metadata [data-metadata]").stream()
                .filter(row -> row.findElement(By.cssSelector("[data-meta-name]"))
                        .getDomProperty("value")
                        .equals(name))
                .findFirst()
                .orElseThrow();
    }

    /** The rows as "name type value", read in one go. */
    @SuppressWarnings("unchecked")
    private static List<String> metadataRows(String form) {
        return (List<String>) browser.script(
                "return [...document.querySelectorAll('#' + arguments[0] + '-metadata [data-metadata]')].map((row) =>"
                        + " ['name', 'type', 'value'].map((part) => row.querySelector('[data-meta-' + part + ']').value)"
                        + ".join(' '));",
                form);
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
