package com.kvportal.dashboard;

import static com.kvportal.support.StorageSamples.report;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.Browser;
import com.kvportal.support.Inbox;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.WebElement;

/**
 * The billing page's "Limits and alerts" panel in a real browser: the limits in force in GiB (as the server states
 * them), saving them with clear errors, the storage cap on the chart, the banner while writes are refused, and the
 * alert mail's link to the panel; at desktop width and at 375 px.
 */
class LimitsDashboardIT extends BrowserIntegration {

    static final long MIB = 1L << 20;

    private Api signUpWithStorage(long bytes) {
        signUpInPage();
        return storeInPage(bytes);
    }

    /** A key made in the page, and the default project's storage reported as the backend would. */
    private Api storeInPage(long bytes) {
        String admin = createKeyInPage("limits", "admin");
        Api api = Api.withKey(baseUrl(), admin);
        UUID project = UUID.fromString(
                api.get("/api/v1/session").json().get("project_id").asString());
        if (bytes > 0) {
            report(baseUrl(), project, bytes, Instant.now().minusSeconds(5));
        }
        return api;
    }

    private void openBilling() {
        browser.open(baseUrl() + "/dashboard/billing");
        browser.visible("content");
        browser.waitUntil(driver -> !meaning().isEmpty());
    }

    /** The panel's lines, read in one go: the page may render them again meanwhile. */
    @SuppressWarnings("unchecked")
    private List<String> meaning() {
        return (List<String>) browser.script(
                "return [...document.querySelectorAll('#limits-meaning li')].map((li) => li.innerText);");
    }

    @Test
    void shouldShowTheLimitsInGibSaveThemAndDrawTheStorageCap() {
        signUpWithStorage(256 * MIB);
        openBilling();

        assertThat(meaning())
                .containsExactly(
                        "Alert at 75 % of the allowance: 768 MiB.",
                        "Alert at 90 % of the allowance: 921.6 MiB.",
                        "Alert at 100 % of the allowance: 1 GiB.",
                        "No storage cap.");
        assertThat(browser.byId("limits-thresholds").getDomProperty("value")).isEqualTo("75, 90, 100");
        assertThat(browser.byId("writes-refused").isDisplayed()).isFalse();

        browser.type("limits-thresholds", "50, 80");
        browser.type("limits-storage-cap", "0.5");
        browser.byId("limits-save").click();
        assertThat(browser.visible("limits-saved").getText())
                .isEqualTo("Limits saved. The storage backend follows them within a few seconds.");
        browser.waitUntil(driver -> meaning().contains("Writes are refused once storage reaches 512 MiB."));
        assertThat(meaning())
                .startsWith(
                        "Alert at 50 % of the allowance: 512 MiB.", "Alert at 80 % of the allowance:" + " 819.2 MiB.");

        Object cap = browser.script(
                """
                const chart = Chart.getChart(document.getElementById('usage-chart'));
                const cap = chart.data.datasets.find((d) => d.label === 'Storage cap');
                return cap ? cap.data[0] : null;""");
        assertThat(((Number) cap).doubleValue()).isEqualTo(0.5);
        assertThat(browser.scriptErrors()).isEmpty();
        checkLayout("billing-limits");
    }

    @Test
    void shouldNameTheFieldAtFaultAndChangeNothing() {
        Api api = signUpWithStorage(0);
        openBilling();

        browser.type("limits-thresholds", "75, 75");
        browser.byId("limits-save").click();
        WebElement error = browser.visible("limits-thresholds-error");
        // the form's own words (percentages typed with commas), not the API's (an array of integers)
        assertThat(error.getText())
                .isEqualTo("Enter up to 5 different whole percentages from 1 to 100, separated by commas, e.g. 50, 80,"
                        + " 100; or leave it empty for no alerts.");
        assertThat(browser.byId("limits-thresholds").getDomAttribute("aria-invalid"))
                .isEqualTo("true");

        saveRefused(
                "limits-storage-cap",
                "-1",
                "limits-save",
                "Enter the storage cap in GiB (0 or more, e.g. 5 or 2.5), or leave it empty for no cap.");
        // the free plan has no overage: nothing to cap
        assertThat(browser.byId("limits-overage-cap").isDisplayed()).isFalse();
        assertThat(browser.byId("limits-meaning").getText()).doesNotContain("verage");
        assertThat(api.get("/api/v1/usage/limits")
                        .json()
                        .get("alert_thresholds_percent")
                        .toString())
                .isEqualTo("[75,90,100]");

        browser.setWidth(Browser.PHONE_WIDTH);
        assertThat(browser.horizontalOverflow()).isZero();
        browser.screenshot("billing-limits-errors-375");
    }

    @Test
    void shouldShowWhyWritesAreRefusedAndLeadFromTheAlertMailToThePanel() {
        String email = signUpInPage();
        storeInPage(1024 * MIB);
        openBilling();

        WebElement banner = browser.visible("writes-refused");
        assertThat(banner.getDomAttribute("data-reason")).isEqualTo("allowance_reached");
        assertThat(banner.getText())
                .contains("Writes are refused: your storage reached the allowance of your plan.")
                .contains("Upgrade to a plan with more storage, or delete data, to write again.");

        browser.setWidth(Browser.PHONE_WIDTH);
        assertThat(browser.horizontalOverflow()).isZero();
        browser.screenshot("billing-writes-refused-375");
        browser.setWidth(Browser.DESKTOP_WIDTH);

        String subject = new Inbox(baseUrl(), email)
                .awaitMessage("writes are refused (allowance_reached)")
                .get("subject")
                .asString();
        clickMailedLink(email, subject);
        browser.waitUntil(driver -> browser.currentUrl().equals(baseUrl() + "/dashboard/billing#limits"));
        browser.visible("limits-form");
    }
}
