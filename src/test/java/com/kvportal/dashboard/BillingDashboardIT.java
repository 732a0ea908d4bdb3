package com.kvportal.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.StorageSamples;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import tools.jackson.databind.JsonNode;

/**
 * The billing page in a real browser against the sandbox provider: its hosted checkout and portal pages, and the
 * signed webhook events it sends, which the page shows once they have landed.
 */
class BillingDashboardIT extends BrowserIntegration {

    /** Webhook events arrive after the response that caused them, possibly retried. */
    private static final Duration WEBHOOK_TIMEOUT = Duration.ofSeconds(60);

    @Test
    void shouldShowTheFreePlanAndThePlansSideBySide() {
        signUpInPage();
        openBillingPage();

        assertThat(browser.byId("current-plan-name").getText()).isEqualTo("Free plan");
        assertThat(browser.byId("subscription-status").isDisplayed()).isFalse();
        assertThat(browser.byId("manage-payment").isDisplayed()).isFalse();
        assertThat(browser.byId("cancel-subscription").isDisplayed()).isFalse();
        assertThat(browser.byId("past-due").isDisplayed()).isFalse();
        WebElement free = plan("free");
        assertThat(free.getText()).contains("Free", "1 GiB storage", "No overage charges", "Current");
        WebElement pro = plan("pro");
        assertThat(pro.getText()).contains("Pro", "$20.00", "100 GiB storage", "$2.00 per 10 GiB");
        assertThat(browser.byId("upgrade-pro").getText()).isEqualTo("Upgrade to Pro");
        WebElement team = plan("team");
        assertThat(team.getText()).contains("Team", "$100.00", "1024 GiB storage", "$15.00 per 100 GiB");
        assertThat(browser.byId("upgrade-team").getText()).isEqualTo("Upgrade to Team");
        assertThat(browser.visible("invoices-empty").getText()).contains("No invoices yet");
        checkLayout("billing-free");

        browser.open(baseUrl() + "/dashboard/billing?checkout=pending");
        assertThat(checkoutBanner()).contains("waiting for the payment provider");
    }

    @Test
    void shouldUpgradeThroughTheHostedCheckoutThenCancelAtPeriodEndAndResumeInThePortal() {
        // checkout needs a verified address: signUpInPage verifies it with the link from the mail sandbox
        signUpInPage();
        openBillingPage();

        browser.byId("upgrade-pro").click();
        awaitSandboxCheckout();
        browser.screenshot("sandbox-checkout-1440");
        browser.byId("go-back").click();
        assertThat(checkoutBanner()).contains("Checkout canceled");
        assertThat(browser.byId("current-plan-name").getText()).isEqualTo("Free plan");

        browser.byId("upgrade-pro").click();
        awaitSandboxCheckout();
        browser.byId("pay-declined").click();
        assertThat(browser.visible("error").getText()).isNotBlank();
        browser.byId("pay").click();

        assertThat(checkoutBanner()).contains("Thank you");
        awaitOnPage(driver -> browser.byId("subscription-status").getText().equals("Active")
                && !browser.all("#invoices-body tr[data-status=paid]").isEmpty());
        assertThat(browser.byId("current-plan-name").getText()).isEqualTo("Pro");
        assertThat(browser.byId("renewal").getText()).startsWith("Renews on ");
        assertThat(plan("pro").getText()).contains("Current");
        assertThat(browser.all("#upgrade-pro")).isEmpty();
        WebElement invoice = browser.all("#invoices-body tr[data-status=paid]").get(0);
        assertThat(invoice.getText()).contains("$20.00", "Paid");
        assertThat(invoice.findElement(By.cssSelector("a[target=_blank]")).getDomAttribute("href"))
                .startsWith("http");
        // the first invoice pays for the month that starts with it: shown as that month, start – end
        WebElement period = invoice.findElement(By.cssSelector("td[data-label=Period]"));
        List<WebElement> dates = period.findElements(By.tagName("time"));
        assertThat(dates).hasSize(2);
        assertThat(period.getText()).contains(" – ");
        assertThat(dates.get(0).getText()).isNotEqualTo(dates.get(1).getText());
        checkLayout("billing-pro");

        browser.byId("cancel-subscription").click();
        assertThat(browser.visible("cancel-dialog").getText()).contains("Free plan");
        browser.screenshot("billing-cancel-dialog-1440");
        browser.byId("cancel-confirm").click();

        browser.waitUntil(ExpectedConditions.textMatches(By.id("renewal"), Pattern.compile("^Cancels on .*")));
        assertThat(browser.byId("renewal").getDomAttribute("data-cancel-at")).isNotBlank();
        assertThat(browser.byId("billing-status").getText()).startsWith("Canceled: your subscription ends on ");
        assertThat(browser.byId("cancel-subscription").isDisplayed()).isFalse();
        assertThat(browser.byId("current-plan-name").getText()).isEqualTo("Pro");
        browser.screenshot("billing-canceling-1440");

        browser.byId("manage-payment").click();
        browser.waitUntil(ExpectedConditions.urlContains("/sandbox/portal/bps_"));
        browser.screenshot("sandbox-portal-1440");
        browser.visible("resume-subscription").click();
        // the portal page comes back with the subscription resumed; only then is its return link the new page's
        // (found on the page being left, it is gone when asked whether it shows: "does not belong to the document")
        browser.visible("cancel-subscription");
        browser.visible("return").click();
        browser.waitUntil(ExpectedConditions.urlContains("/dashboard/billing"));
        awaitAfterReloads(driver -> browser.byId("renewal").getText().startsWith("Renews on "));
        assertThat(browser.byId("cancel-subscription").isDisplayed()).isTrue();
    }

    @Test
    void shouldWarnWhenARenewalPaymentFailsAndLeadToThePaymentPortal() {
        JsonNode subscription = buyProInPage().subscription();
        String customer = subscription.get("provider_customer_id").asString();
        String providerSubscription =
                subscription.get("provider_subscription_id").asString();
        Api sandbox = sandbox();

        assertThat(sandbox.post("/sandbox/customers/" + customer + "/card", Map.of("outcome", "card_declined"))
                        .status())
                .isBetween(200, 299);
        assertThat(sandbox.post("/sandbox/subscriptions/" + providerSubscription + "/advance")
                        .status())
                .isBetween(200, 299);

        awaitAfterReloads(driver -> browser.byId("past-due").isDisplayed());
        assertThat(browser.byId("past-due").getText()).contains("Your last payment failed");
        assertThat(browser.byId("subscription-status").getText()).isEqualTo("Past due");
        assertThat(browser.byId("current-plan-name").getText()).isEqualTo("Pro");
        assertThat(browser.all("#invoices-body tr[data-status=open]")).isNotEmpty();
        checkLayout("billing-past-due");

        browser.byId("past-due-fix").click();
        browser.waitUntil(ExpectedConditions.urlContains("/sandbox/portal/bps_"));
        browser.driver().navigate().back();

        assertThat(sandbox.post("/sandbox/customers/" + customer + "/card", Map.of("outcome", "succeeded"))
                        .status())
                .isBetween(200, 299);
        awaitAfterReloads(
                driver -> browser.byId("subscription-status").getText().equals("Active"));
        assertThat(browser.byId("past-due").isDisplayed()).isFalse();
    }

    @Test
    void shouldShowTheStorageOverageAsALineUnderTheRenewalInvoice() {
        Bought bought = buyProInPage();
        JsonNode subscription = bought.subscription();
        UUID project = bought.projectId();
        // 150 GiB for the whole period: 50 GiB above pro's 100, 5 units of 10 GiB at $2.00
        StorageSamples.report(
                baseUrl(),
                project,
                150L << 30,
                Instant.parse(subscription.get("current_period_start").asString()));
        assertThat(sandbox()
                        .post("/sandbox/subscriptions/"
                                + subscription.get("provider_subscription_id").asString() + "/advance")
                        .status())
                .isBetween(200, 299);

        awaitAfterReloads(driver ->
                !browser.all("#invoices-body li[data-kind=storage_overage]").isEmpty());
        WebElement overage =
                browser.all("#invoices-body li[data-kind=storage_overage]").get(0);
        assertThat(overage.getText())
                .startsWith("Storage overage: 5 × 10 GiB above 100 GiB (")
                .contains("$10.00");
        assertThat(overage.getDomAttribute("data-quantity")).isEqualTo("5");
        String invoiceId = overage.findElement(By.xpath("ancestor::tr[1]")).getDomAttribute("data-invoice-lines");
        WebElement invoice =
                browser.visible("invoices-body").findElement(By.cssSelector("tr[data-invoice-id='" + invoiceId + "']"));
        assertThat(invoice.getText()).contains("$30.00");
        checkLayout("billing-overage");
    }

    /** A subscription bought in the page, as the API shows it, and the project the page had selected. */
    private record Bought(JsonNode subscription, UUID projectId) {}

    /** An unverified person pressing Upgrade is told what to do in the page's words: no API path, no method. */
    @Test
    void shouldTellAnUnverifiedPersonWhatToDoBeforeUpgradingInWordsForAPerson() {
        signUpUnverifiedInPage();
        openBillingPage();

        plan("pro");
        browser.byId("upgrade-pro").click();

        String message = browser.waitUntil(driver -> {
            String text = browser.byId("billing-status").getText();
            return text.isEmpty() ? null : text;
        });
        assertThat(message)
                .startsWith("Please verify your email address first")
                .contains("Send a new link")
                .doesNotContain("/api/", "POST");
        assertThat(browser.driver().findElement(By.tagName("body")).getText())
                .doesNotContainPattern("/api/v1|\\b(GET|POST|PUT|PATCH|DELETE) /");
        checkLayout("billing-unverified-upgrade");
    }

    /**
     * On pro, Upgrade to Team shows what the change charges now, and on confirmation the page is on Team; Downgrade to
     * Pro then waits for the period's end, shown on the page with a way to keep Team.
     */
    @Test
    void shouldChangeALiveSubscriptionToTeamAfterShowingWhatItChargesNow() {
        Bought bought = buyProInPage();
        assertThat(browser.byId("current-plan-name").getText()).isEqualTo("Pro");

        browser.byId("upgrade-team").click();
        String text = browser.visible("change-text").getText();
        assertThat(text).contains("Team", "$80.00");
        browser.screenshot("billing-change-dialog-1440");
        browser.byId("change-confirm").click();

        awaitOnPage(driver -> browser.byId("current-plan-name").getText().equals("Team"));
        assertThat(browser.byId("billing-status").getText()).contains("on Team now");
        assertThat(plan("team").getText()).contains("Current");
        assertThat(browser.all("#upgrade-team")).isEmpty();
        assertThat(bought.subscription().get("plan").get("tier").asString()).isEqualTo("pro");
        checkLayout("billing-team");

        // back to pro at the period's end: the confirmation says when and that nothing is charged now
        browser.byId("downgrade-pro").click();
        assertThat(browser.visible("change-text").getText())
                .contains("until the end of the current period", "Pro", "Nothing is charged now");
        browser.byId("change-confirm").click();
        awaitOnPage(driver -> browser.byId("renewal").getText().startsWith("Moves to Pro on"));
        assertThat(browser.byId("billing-status").getText()).contains("moves to Pro on");
        assertThat(browser.byId("current-plan-name").getText()).isEqualTo("Team");
        assertThat(plan("pro").getText()).contains("Starts on");
        assertThat(browser.all("#downgrade-pro")).isEmpty();
        checkLayout("billing-downgrade-scheduled");

        // kept after all, behind a confirmation; going back from it changes nothing
        browser.visible("cancel-plan-change").click();
        assertThat(browser.visible("keep-text").getText()).contains("stays on Team", "Pro");
        browser.driver()
                .findElement(By.cssSelector("#keep-dialog button[value=cancel]"))
                .click();
        assertThat(browser.byId("renewal").getText()).startsWith("Moves to Pro on");
        browser.visible("cancel-plan-change").click();
        browser.visible("keep-confirm").click();
        awaitOnPage(driver -> browser.byId("renewal").getText().startsWith("Renews on"));
        assertThat(browser.byId("cancel-plan-change").isDisplayed()).isFalse();
        assertThat(browser.visible("downgrade-pro").getText()).isEqualTo("Downgrade to Pro");
    }

    /** Signs up, buys pro through the hosted checkout in the page and waits until the page says so. */
    private Bought buyProInPage() {
        signUpInPage();
        Api admin = Api.withKey(baseUrl(), createKeyInPage("billing automation", "admin"));
        openBillingPage();
        browser.byId("upgrade-pro").click();
        awaitSandboxCheckout();
        browser.byId("pay").click();
        awaitOnPage(driver -> browser.byId("subscription-status").getText().equals("Active"));
        return new Bought(
                admin.get("/api/v1/billing/subscription").json().get("subscription"),
                UUID.fromString(
                        admin.get("/api/v1/session").json().get("project_id").asString()));
    }

    private void openBillingPage() {
        browser.open(baseUrl() + "/dashboard/billing");
        browser.visible("content");
    }

    private void awaitSandboxCheckout() {
        browser.waitUntil(ExpectedConditions.urlContains("/sandbox/checkout/cs_"));
        browser.visible("pay");
    }

    private String checkoutBanner() {
        browser.waitUntil(ExpectedConditions.urlToBe(baseUrl() + "/dashboard/billing"));
        return browser.visible("checkout-banner").getText();
    }

    private WebElement plan(String tier) {
        return browser.visible("plans").findElement(By.cssSelector("[data-tier=" + tier + "]"));
    }

    /** Waits while the page itself looks again (it does so for a while after checkout). */
    private void awaitOnPage(Function<WebDriver, Boolean> condition) {
        browser.waitUntil(WEBHOOK_TIMEOUT, driver -> condition.apply(driver) ? Boolean.TRUE : null);
    }

    /** Reloads the page until the condition holds: a person pressing F5 while the webhook is on its way. */
    private void awaitAfterReloads(Function<WebDriver, Boolean> condition) {
        new WebDriverWait(browser.driver(), WEBHOOK_TIMEOUT)
                .pollingEvery(Duration.ofSeconds(2))
                .ignoring(StaleElementReferenceException.class)
                .ignoring(NoSuchElementException.class)
                .until(driver -> {
                    if (driver.findElement(By.id("content")).isDisplayed() && condition.apply(driver)) {
                        return true;
                    }
                    driver.navigate().refresh();
                    return null;
                });
    }
}
