package com.kvportal.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import java.net.http.HttpRequest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import tools.jackson.databind.JsonNode;

/** Edit and roll on the keys page, and the Activity page, in a real browser. */
class KeyLifecycleDashboardIT extends BrowserIntegration {

    @Test
    void shouldRenameAKeyAndChangeItsPermissionsInTheEditDialog() {
        String email = signUpInPage();
        String raw = createKeyInPage("billing-worker", "read");
        browser.byId("dismiss-key").click();

        rowNamed("billing-worker")
                .findElement(By.cssSelector("[data-action=edit]"))
                .click();
        browser.visible("edit-dialog");
        assertThat(browser.byId("edit-name").getDomProperty("value")).isEqualTo("billing-worker");
        assertThat(browser.byId("edit-perm-read").isSelected()).isTrue();
        saveRefused("edit-name", "", "edit-save", "Name is required.");
        browser.screenshot("keys-edit-error-1440");

        browser.type("edit-name", "billing-worker v2");
        browser.byId("edit-perm-read").click();
        browser.byId("edit-perm-write").click();
        browser.screenshot("keys-edit-dialog-1440");
        browser.byId("edit-save").click();

        browser.waitForHidden("edit-dialog");
        WebElement row = rowNamed("billing-worker v2");
        assertThat(row.getText()).contains("write").doesNotContain("read");
        assertThat(browser.byId("list-status").getText()).contains("was saved");
        JsonNode verified =
                Api.withKey(baseUrl(), raw).post("/api/v1/api-keys/verify").json();
        assertThat(verified.get("permissions").toString()).isEqualTo("[\"write\"]");
        checkLayout("keys-edited");
        assertThat(browser.scriptErrors()).isEmpty();
        assertThat(email).isNotBlank();
    }

    @Test
    void shouldRollAKeyShowTheNewOneOnceAndTheOldKeysNewExpiry() {
        signUpInPage();
        String old = createKeyInPage("deploy", "write");
        browser.byId("dismiss-key").click();

        rowNamed("deploy").findElement(By.cssSelector("[data-action=roll]")).click();
        browser.visible("roll-dialog");
        assertThat(browser.byId("grace-day").isSelected()).isTrue();
        browser.byId("grace-hour").click();
        browser.screenshot("keys-roll-dialog-1440");
        browser.byId("roll-confirm").click();

        browser.visible("new-key");
        String fresh = browser.byId("new-key-value").getDomProperty("value");
        assertThat(fresh).matches("kv_[0-9A-Za-z]{32}").isNotEqualTo(old);
        assertThat(browser.byId("new-key-title").getText()).contains("deploy", "rolled");
        assertThat(browser.byId("list-status").getText()).contains("the old key works until");
        assertThat(browser.all("#keys-body tr")).hasSize(2);
        assertThat(browser.byId("keys-table").getText()).doesNotContain(fresh);
        Api.Response oldVerified = Api.withKey(baseUrl(), old).post("/api/v1/api-keys/verify");
        assertThat(oldVerified.status()).isEqualTo(200);
        assertThat(Api.withKey(baseUrl(), fresh).post("/api/v1/api-keys/verify").status())
                .isEqualTo(200);

        // the old key's row now shows its expiry in an hour, with the time of day
        WebElement oldRow = browser.all("#keys-body tr").get(1);
        String expiry = oldRow.findElement(By.cssSelector("td[data-label=Expires] time"))
                .getDomAttribute("datetime");
        assertThat(Instant.parse(expiry))
                .isBetween(
                        Instant.now().plus(55, ChronoUnit.MINUTES),
                        Instant.now().plus(61, ChronoUnit.MINUTES));
        checkLayout("keys-rolled");

        browser.byId("copy-key").click();
        browser.waitUntil(driver -> !browser.byId("copy-status").getText().isEmpty());
        browser.byId("dismiss-key").click();
        browser.waitForHidden("new-key");
        assertThat(browser.driver().getPageSource()).doesNotContain(fresh);

        // roll again, revoking the predecessor at once: it leaves the list
        browser.all("#keys-body tr")
                .get(0)
                .findElement(By.cssSelector("[data-action=roll]"))
                .click();
        browser.visible("roll-dialog");
        browser.byId("grace-now").click();
        browser.byId("roll-confirm").click();
        browser.visible("new-key");
        browser.waitUntil(driver -> browser.all("#keys-body tr").size() == 2 ? Boolean.TRUE : null);
        assertThat(Api.withKey(baseUrl(), fresh).post("/api/v1/api-keys/verify").code())
                .isEqualTo("api_key_revoked");
        assertThat(browser.scriptErrors()).isEmpty();
    }

    @Test
    void shouldShowTheAuditLogAsSentencesAPageAtATime() {
        String email = signUpInPage();
        createKeyInPage("billing-worker", "read");
        browser.byId("dismiss-key").click();
        rowNamed("billing-worker")
                .findElement(By.cssSelector("[data-action=revoke]"))
                .click();
        browser.visible("revoke-dialog");
        browser.byId("revoke-confirm").click();
        browser.visible("keys-empty");
        Api same = api();
        same.post("/api/v1/auth/login", Map.of("email", email, "password", PASSWORD));
        for (int i = 0; i < 30; i++) {
            same.createKey("batch " + i);
        }
        // from the IPv6 loopback, as Java writes an IPv6 client's address (in full: 0:0:0:0:0:0:0:1); the service
        // takes X-Forwarded-For from a proxy on loopback, which the test is
        Map<String, String> fromIpv6 = Map.of("X-Forwarded-For", "0:0:0:0:0:0:0:1", "Content-Type", "application/json");
        same.sendRaw(
                "POST",
                "/api/v1/invitations",
                HttpRequest.BodyPublishers.ofString("{\"email\": \"colleague@example.com\", \"role\": \"developer\"}"),
                fromIpv6);
        same.sendRaw(
                "PUT",
                "/api/v1/usage/limits",
                HttpRequest.BodyPublishers.ofString("{\"alert_thresholds_percent\": [50, 80]}"),
                fromIpv6);

        browser.driver().findElement(By.linkText("Activity")).click();
        browser.waitUntil(ExpectedConditions.urlToBe(baseUrl() + "/dashboard/activity"));
        browser.visible("content");
        assertThat(browser.driver()
                        .findElement(By.cssSelector("a[href='/dashboard/activity']"))
                        .getDomAttribute("aria-current"))
                .isEqualTo("page");
        assertThat(browser.all("#activity-body tr")).hasSize(25);
        List<String> rows = browser.all("#activity-body tr").stream()
                .map(WebElement::getText)
                .toList();
        assertThat(rows.get(0))
                .contains(email + " changed the storage limits and alerts of " + email
                        + "'s organization: alerts at 50 %, 80 %")
                .contains("::1")
                .doesNotContain("0:0:0:0");
        assertThat(rows.get(1)).contains(email + " invited colleague@example.com as developer", "::1");
        assertThat(rows.get(2)).contains(email + " created key batch 29", "127.0.0.1");
        assertThat(String.join("\n", rows).replace(email, "the person"))
                .as("no action code, no bare id")
                .doesNotContain("usage.limits_updated", "member.invited", "api_key.")
                .doesNotContainPattern("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
        checkLayout("activity");

        browser.visible("load-more").click();
        browser.waitUntil(driver -> browser.all("#activity-body tr").size() > 25 ? Boolean.TRUE : null);
        browser.waitForHidden("load-more");
        String page = browser.byId("activity-body").getText();
        assertThat(browser.byId("activity-count").getText())
                .isEqualTo(browser.all("#activity-body tr").size() + " events");
        assertThat(page.replace(email, "the person").replace("colleague@example.com", "a colleague"))
                .as("no action code, no bare id, on any line")
                .doesNotContainPattern("\\b[a-z_]+\\.[a-z_]+\\b")
                .doesNotContainPattern("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
        assertThat(page)
                .contains(email + " revoked key billing-worker")
                .contains(email + " created key billing-worker")
                .contains(email + " logged in")
                .contains(email + " signed up");
        assertThat(browser.byId("activity-body")
                        .findElement(By.cssSelector("tr[data-action='api_key.revoked'] em"))
                        .getText())
                .isEqualTo("billing-worker");
        browser.screenshot("activity-all-1440");
        assertThat(browser.scriptErrors()).isEmpty();
    }
}
