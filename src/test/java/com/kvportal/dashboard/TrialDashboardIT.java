package com.kvportal.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.springframework.test.context.TestPropertySource;

/** The billing page with trials on: a first checkout through the hosted page shows the trial and when it ends. */
@TestPropertySource(properties = "kvportal.billing.plans.trial-days=14")
class TrialDashboardIT extends BrowserIntegration {

    @Test
    void shouldShowTheTrialAndItsEndAfterTheFirstCheckout() {
        signUpInPage();
        browser.open(baseUrl() + "/dashboard/billing");
        browser.visible("content");
        assertThat(browser.byId("trial").isDisplayed()).isFalse();

        browser.byId("upgrade-pro").click();
        browser.waitUntil(ExpectedConditions.urlContains("/sandbox/checkout/cs_"));
        browser.visible("pay").click();

        browser.waitUntil(ExpectedConditions.urlToBe(baseUrl() + "/dashboard/billing"));
        browser.waitUntil(
                Duration.ofSeconds(60),
                driver -> browser.byId("subscription-status").getText().equals("Trial") ? Boolean.TRUE : null);
        String trial = browser.visible("trial").getText();
        assertThat(trial).startsWith("Trial until ").contains("Your card is charged for Pro then");
        assertThat(browser.byId("trial").getAttribute("data-trial-end")).isNotBlank();

        // an upgrade within the trial: nothing is charged now, the trial's end bills the new plan
        browser.byId("upgrade-team").click();
        assertThat(browser.visible("change-text").getText())
                .contains("within your trial", "You are charged $0.00 now", "for Team at $100.00 a month")
                .doesNotContain("new monthly period");
        browser.byId("change-confirm").click();
        browser.waitUntil(
                Duration.ofSeconds(30),
                driver -> browser.byId("current-plan-name").getText().equals("Team") ? Boolean.TRUE : null);
        assertThat(browser.byId("subscription-status").getText()).isEqualTo("Trial");
    }
}
