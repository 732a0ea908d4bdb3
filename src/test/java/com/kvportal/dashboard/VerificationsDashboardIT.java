package com.kvportal.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.kvportal.apikey.analytics.VerificationCounting;
import com.kvportal.support.Api;
import com.kvportal.support.Browser;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import tools.jackson.databind.JsonNode;

/** A key's verifications chart on the keys page and the organization's Verifications page, in a real browser. */
class VerificationsDashboardIT extends BrowserIntegration {

    private static final String[] REFUSALS = {
        "revoked", "expired", "disabled", "ip_not_allowed", "rate_limited", "credits_exhausted"
    };

    @Autowired
    ApplicationContext context;

    @Test
    @SuppressWarnings("unchecked")
    void shouldChartAKeysVerifiesWithTheApisTotalsAndListTheBusiestKeysFirst() {
        signUpInPage();
        Api api = Api.withKey(baseUrl(), createKeyInPage("analytics reader", "admin"));
        String busy = api.createKey("busy");
        String gone = api.createKey("gone");
        verify(busy, Map.of(), 200, 5);
        verify(gone, Map.of(), 200, 1);
        assertThat(api.delete("/api/v1/api-keys/" + api.keyId("gone")).status()).isEqualTo(204);
        verify(gone, Map.of(), 401, 2);
        String busyId = api.keyId("busy");
        assertThat(api.patch("/api/v1/api-keys/" + busyId, Map.of("allowed_ips", List.of("203.0.113.0/24")))
                        .status())
                .isEqualTo(200);
        verify(busy, Map.of("client_ip", "198.51.100.7"), 403, 2);
        VerificationCounting.flush(context);
        JsonNode buckets = api.get("/api/v1/api-keys/" + busyId + "/verifications?granularity=minute")
                .json()
                .get("buckets");
        long accepted = 0;
        long refused = 0;
        for (JsonNode bucket : buckets) {
            accepted += bucket.get("valid").asLong();
            for (String outcome : REFUSALS) {
                refused += bucket.get(outcome).asLong();
            }
        }
        assertThat(accepted).isEqualTo(5);
        assertThat(refused).isEqualTo(2);

        browser.driver().navigate().refresh();
        awaitKeysPage();
        rowNamed("busy").findElement(By.cssSelector("[data-action='chart']")).click();
        browser.visible("chart-dialog");
        WebElement totals = browser.waitUntil(driver -> {
            WebElement text = browser.byId("chart-totals");
            return text.getDomAttribute("data-accepted") != null ? text : null;
        });
        assertThat(totals.getText()).isEqualTo(accepted + " accepted, " + refused + " refused in the last 24 h");
        List<Map<String, Object>> datasets = (List<Map<String, Object>>)
                browser.script(
                        """
                const chart = Chart.getChart(document.getElementById('verifications-chart'));
                return chart && chart.data.datasets.map((d) => ({ label: d.label,
                  sum: d.data.reduce((a, b) => a + b, 0) }));""");
        assertThat(datasets).as("a Chart.js chart on the canvas").isNotNull();
        assertThat(datasets)
                .extracting(d -> d.get("label"), d -> ((Number) d.get("sum")).longValue())
                .containsExactly(tuple("Accepted", accepted), tuple("Refused", refused));
        assertThat(browser.byId("chart-empty").isDisplayed()).isFalse();
        checkLayout("keys-verifications-chart");

        // a key never verified: a sentence rather than an empty chart
        browser.byId("chart-dialog")
                .findElement(By.cssSelector("button[value='close']"))
                .click();
        browser.waitForHidden("chart-dialog");
        rowNamed("analytics reader")
                .findElement(By.cssSelector("[data-action='chart']"))
                .click();
        browser.visible("chart-empty");
        assertThat(browser.byId("chart-empty").getText()).startsWith("No verifies yet");
        assertThat(browser.byId("chart-totals").getText()).isEqualTo("0 accepted, 0 refused in the last 24 h");

        browser.open(baseUrl() + "/dashboard/verifications");
        browser.visible("content");
        browser.visible("top-keys-table-wrap");
        List<WebElement> rows = browser.all("#top-keys-body tr");
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).getDomAttribute("data-key-id")).isEqualTo(busyId);
        assertThat(rows.get(0).getText()).contains("busy", "5", "2");
        assertThat(rows.get(1).getText()).contains("gone", "1", "2");
        assertThat(browser.byId("refusals-total").getText()).isEqualTo("4 refused verifies in the last 30 days.");
        assertThat(browser.all("#refusals li"))
                .extracting(li -> li.getDomAttribute("data-outcome"), li -> li.getDomAttribute("data-count"))
                .containsExactlyInAnyOrder(tuple("revoked", "2"), tuple("ip_not_allowed", "2"));
        assertThat(browser.scriptErrors()).isEmpty();
        checkLayout("verifications");
        browser.setWidth(Browser.DESKTOP_WIDTH);
    }

    private void verify(String raw, Map<String, Object> body, int status, int times) {
        for (int i = 0; i < times; i++) {
            Api key = Api.withKey(baseUrl(), raw);
            assertThat((body.isEmpty()
                                    ? key.post("/api/v1/api-keys/verify")
                                    : key.post("/api/v1/api-keys/verify", body))
                            .status())
                    .isEqualTo(status);
        }
    }
}
