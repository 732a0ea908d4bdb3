package com.kvportal.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Coupons;
import com.stripe.exception.StripeException;
import com.stripe.param.CouponCreateParams;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The billing page's promotion code field in a real browser: a code that cannot be used is refused in the page
 * before anything is started; a good one is taken off the first invoice, which shows subtotal, discount, tax and
 * total.
 */
class PromotionCodeDashboardIT extends BrowserIntegration {

    private static final Duration WEBHOOK_TIMEOUT = Duration.ofSeconds(60);

    @Test
    void shouldTakeAPromotionCodeAtCheckoutAndShowTheDiscountOnTheInvoice() throws StripeException {
        String code = Coupons.uniqueCode("WELCOME");
        new Coupons(stripeClient()).percentOffCode("25", CouponCreateParams.Duration.ONCE, code);
        signUpInPage();
        browser.open(baseUrl() + "/dashboard/billing");
        browser.visible("content");
        browser.visible("plans").findElement(By.cssSelector("[data-tier=pro]"));

        WebElement field = browser.visible("promotion-code");
        field.sendKeys("NOT-A-CODE");
        browser.byId("upgrade-pro").click();
        String refused = browser.waitUntil(driver -> {
            String text = browser.byId("billing-status").getText();
            return text.isEmpty() ? null : text;
        });
        assertThat(refused).contains("NOT-A-CODE", "cannot be used", "check out without a code");
        assertThat(browser.driver().getCurrentUrl()).contains("/dashboard/billing");

        field.clear();
        field.sendKeys(code.toLowerCase());
        browser.byId("upgrade-pro").click();
        browser.waitUntil(ExpectedConditions.urlContains("/sandbox/checkout/cs_"));
        browser.visible("pay").click();

        browser.waitUntil(WEBHOOK_TIMEOUT, driver -> {
            if (!driver.getCurrentUrl().contains("/dashboard/billing")) {
                return null;
            }
            driver.navigate().refresh();
            return browser.all("#invoices-body li[data-kind=discount]").isEmpty() ? null : Boolean.TRUE;
        });
        WebElement totals = browser.all("#invoices-body [data-invoice-totals]").get(0);
        assertThat(totals.getText())
                .contains("Subtotal $20.00")
                .contains("Discount −$5.00")
                .contains("Tax $0.00")
                .contains("Total $15.00");
        assertThat(browser.all("#invoices-body li[data-kind=discount]").get(0).getText())
                .contains("Discount", "-$5.00");
        assertThat(browser.byId("promotion-code-field").isDisplayed()).isFalse();
        checkLayout("billing-promotion-code");
    }
}
