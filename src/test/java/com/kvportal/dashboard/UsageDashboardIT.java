package com.kvportal.dashboard;

import static com.kvportal.support.StorageSamples.report;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.Browser;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.WebElement;
import tools.jackson.databind.JsonNode;

/** The billing page's usage panel in a real browser: the figures, the per-project table and the chart's numbers. */
class UsageDashboardIT extends BrowserIntegration {

    static final long MIB = 1L << 20;

    @Test
    @SuppressWarnings("unchecked")
    void shouldChartTheDailyStorageAgainstTheAllowanceAndShowEachProject() {
        signUpInPage();
        String admin = createKeyInPage("usage reader", "admin");
        Api api = Api.withKey(baseUrl(), admin);
        UUID project = UUID.fromString(
                api.get("/api/v1/session").json().get("project_id").asString());
        UUID photos = api.createProject("Photos");
        Instant now = Instant.now();
        report(baseUrl(), project, 256 * MIB, now.minus(Duration.ofMinutes(30)));
        report(baseUrl(), photos, 512 * MIB, now.minus(Duration.ofMinutes(10)));
        JsonNode usage = api.get("/api/v1/usage").json();

        browser.open(baseUrl() + "/dashboard/billing");
        browser.visible("content");
        browser.waitUntil(driver -> browser.byId("usage-current").getDomAttribute("data-bytes") != null);

        assertThat(browser.byId("usage-current").getDomAttribute("data-bytes")).isEqualTo(String.valueOf(768 * MIB));
        assertThat(browser.byId("usage-current").getText()).isEqualTo("768 MiB");
        assertThat(browser.byId("usage-allowance").getText()).isEqualTo("of 1 GiB included");
        assertThat(browser.byId("usage-projected").getText()).isEqualTo("$0.00");
        assertThat(browser.byId("usage-projected-detail").getText()).contains("writes stop at the limit");
        assertThat(browser.byId("usage-bar").getDomAttribute("aria-valuenow")).isEqualTo(String.valueOf(768 * MIB));
        List<WebElement> rows = browser.all("#usage-projects-body tr");
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).getText()).contains("Default project", "256 MiB", "33 %");
        assertThat(rows.get(1).getText()).contains("Photos", "512 MiB", "67 %");

        // the chart: every day of the period on the axis, the API's daily figures, the allowance line
        Map<String, Object> chart = (Map<String, Object>)
                browser.script(
                        """
                const chart = Chart.getChart(document.getElementById('usage-chart'));
                return chart && { labels: chart.data.labels,
                  datasets: chart.data.datasets.map((d) => ({ label: d.label, data: d.data })) };""");
        assertThat(chart).as("a Chart.js chart on the canvas").isNotNull();
        LocalDate first = LocalDate.parse(usage.get("period_start").asString().substring(0, 10));
        LocalDate end = LocalDate.parse(usage.get("period_end").asString().substring(0, 10));
        List<String> labels = (List<String>) chart.get("labels");
        assertThat(labels).hasSize((int) (end.toEpochDay() - first.toEpochDay()));
        assertThat(labels.get(0)).isEqualTo(first.toString());
        List<Map<String, Object>> datasets = (List<Map<String, Object>>) chart.get("datasets");
        assertThat(datasets)
                .extracting(d -> d.get("label"))
                .containsExactly("Daily average", "Daily peak", "Allowance");
        List<Object> allowance = (List<Object>) datasets.get(2).get("data");
        assertThat(allowance)
                .allSatisfy(v -> assertThat(((Number) v).doubleValue()).isEqualTo(1.0));
        String today = LocalDate.now(ZoneOffset.UTC).toString();
        int todayIndex = labels.indexOf(today);
        JsonNode todayInApi = usage.get("daily").get(usage.get("daily").size() - 1);
        assertThat(todayInApi.get("date").asString()).isEqualTo(today);
        List<Object> peaks = (List<Object>) datasets.get(1).get("data");
        assertThat(((Number) peaks.get(todayIndex)).doubleValue() * (1L << 30))
                .isEqualTo((double) todayInApi.get("peak_bytes").asLong());
        assertThat(((Number) peaks.get(todayIndex)).doubleValue()).isEqualTo(0.75);
        List<Object> averages = (List<Object>) datasets.get(0).get("data");
        assertThat(((Number) averages.get(todayIndex)).doubleValue() * (1L << 30))
                .isCloseTo((double) todayInApi.get("average_bytes").asLong(), org.assertj.core.data.Offset.offset(1e6));
        if (todayIndex + 1 < labels.size()) {
            assertThat(averages.get(todayIndex + 1))
                    .as("days to come are empty")
                    .isNull();
        }
        assertThat(browser.scriptErrors()).isEmpty();
        checkLayout("billing-usage");

        browser.setWidth(Browser.PHONE_WIDTH);
        browser.script("document.getElementById('usage-chart').style.width = '1500px';");
        assertThat(browser.horizontalOverflow())
                .as("a chart canvas not yet resized (Chart.js redraws a frame later) widens the page by")
                .isZero();
        browser.setWidth(Browser.DESKTOP_WIDTH);
    }

    @Test
    void shouldSayThatWritesAreRefusedWhenAFreeOrganizationIsAtItsLimit() {
        signUpInPage();
        String admin = createKeyInPage("usage reader", "admin");
        UUID project = UUID.fromString(Api.withKey(baseUrl(), admin)
                .get("/api/v1/session")
                .json()
                .get("project_id")
                .asString());
        report(baseUrl(), project, 1024 * MIB, Instant.now().minusSeconds(5));

        browser.open(baseUrl() + "/dashboard/billing");
        browser.visible("content");
        browser.waitUntil(driver -> browser.byId("usage-current").getDomAttribute("data-bytes") != null);

        assertThat(browser.byId("usage-current").getText()).isEqualTo("1 GiB");
        assertThat(browser.byId("usage-projected-detail").getText()).contains("writes are refused");
        assertThat(browser.byId("usage-bar-fill").getDomAttribute("class")).contains("full");
        browser.screenshot("billing-usage-free-at-limit-1440");
    }
}
