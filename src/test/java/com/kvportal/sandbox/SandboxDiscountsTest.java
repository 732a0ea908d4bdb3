package com.kvportal.sandbox;

import static com.kvportal.support.Coupons.uniqueCode;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Coupons;
import com.kvportal.support.ProCheckout;
import com.stripe.exception.StripeException;
import com.stripe.model.Coupon;
import com.stripe.model.Invoice;
import com.stripe.model.PromotionCode;
import com.stripe.model.Subscription;
import com.stripe.model.checkout.Session;
import com.stripe.param.CouponCreateParams;
import com.stripe.param.CustomerCreateParams;
import com.stripe.param.InvoiceItemCreateParams;
import com.stripe.param.PromotionCodeListParams;
import com.stripe.param.PromotionCodeUpdateParams;
import com.stripe.param.checkout.SessionCreateParams;
import java.math.BigDecimal;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Coupons, promotion codes, their discounts on a subscription's invoices and automatic tax by the customer's country,
 * through stripe-java against the sandbox (and its hosted page's pay endpoint).
 */
class SandboxDiscountsTest extends SandboxTest {

    private Coupons coupons() {
        return new Coupons(stripeClient());
    }

    /** A new customer and a checkout session of the pro price shaped by {@code shape}. */
    private Session checkout(String email, UnaryOperator<SessionCreateParams.Builder> shape) throws StripeException {
        String customer = stripeClient()
                .v1()
                .customers()
                .create(CustomerCreateParams.builder().setEmail(email).build())
                .getId();
        return stripeClient()
                .v1()
                .checkout()
                .sessions()
                .create(shape.apply(ProCheckout.params(baseUrl(), customer, "org-1"))
                        .build());
    }

    private static SessionCreateParams.Builder withCode(SessionCreateParams.Builder params, PromotionCode code) {
        return params.addDiscount(SessionCreateParams.Discount.builder()
                .setPromotionCode(code.getId())
                .build());
    }

    private static SessionCreateParams.Builder taxed(SessionCreateParams.Builder params) {
        return params.setBillingAddressCollection(SessionCreateParams.BillingAddressCollection.REQUIRED)
                .setAutomaticTax(SessionCreateParams.AutomaticTax.builder()
                        .setEnabled(true)
                        .build());
    }

    private Invoice latestInvoice(String subscriptionId) throws StripeException {
        return stripeClient()
                .v1()
                .invoices()
                .retrieve(stripeClient()
                        .v1()
                        .subscriptions()
                        .retrieve(subscriptionId)
                        .getLatestInvoice());
    }

    /** Advances to the period's end and answers the renewal, once it is paid. */
    private Invoice renew(String subscriptionId) throws StripeException {
        Reply advanced = advance(subscriptionId);
        assertThat(advanced.status()).as(advanced.body()).isEqualTo(200);
        return awaitInvoice(advanced.json().get("latest_invoice").asString(), "paid");
    }

    private static void assertAmounts(Invoice invoice, long subtotal, long discount, long tax, long total) {
        assertThat(invoice.getSubtotal()).as("subtotal").isEqualTo(subtotal);
        long discounted = invoice.getTotalDiscountAmounts().stream()
                .mapToLong(Invoice.TotalDiscountAmount::getAmount)
                .sum();
        assertThat(discounted).as("total_discount_amounts").isEqualTo(discount);
        assertThat(invoice.getTotalExcludingTax()).as("total_excluding_tax").isEqualTo(subtotal - discount);
        long taxed = invoice.getTotalTaxes().stream()
                .mapToLong(Invoice.TotalTax::getAmount)
                .sum();
        assertThat(taxed).as("total_taxes").isEqualTo(tax);
        assertThat(invoice.getTotal()).as("total").isEqualTo(total);
        assertThat(invoice.getAmountDue()).as("amount_due").isEqualTo(total);
    }

    @Test
    void shouldMakeCouponsAndPromotionCodesInStripesShapesAndFindACodeInAnyCase() throws StripeException {
        Coupon percent = coupons().coupon(c -> c.setPercentOff(new BigDecimal("25.5"))
                .setDuration(CouponCreateParams.Duration.REPEATING)
                .setDurationInMonths(3L)
                .setName("25.5% off"));
        Coupon amount = coupons().coupon(c -> c.setAmountOff(500L).setCurrency("usd"));

        assertThat(percent.getObject()).isEqualTo("coupon");
        assertThat(percent.getPercentOff()).isEqualByComparingTo("25.5");
        assertThat(percent.getAmountOff()).isNull();
        assertThat(percent.getDuration()).isEqualTo("repeating");
        assertThat(percent.getDurationInMonths()).isEqualTo(3L);
        assertThat(percent.getValid()).isTrue();
        assertThat(percent.getTimesRedeemed()).isZero();
        assertThat(amount.getAmountOff()).isEqualTo(500L);
        assertThat(amount.getCurrency()).isEqualTo("usd");
        assertThat(amount.getDuration()).isEqualTo("once");
        assertThat(stripeClient().v1().coupons().retrieve(amount.getId()).getAmountOff())
                .isEqualTo(500L);

        String text = uniqueCode("Spring");
        PromotionCode code = coupons().promotionCode(percent, text);
        assertThat(code.getId()).startsWith("promo_");
        assertThat(code.getObject()).isEqualTo("promotion_code");
        assertThat(code.getCode()).isEqualTo(text);
        assertThat(code.getActive()).isTrue();
        assertThat(code.getPromotion().getType()).isEqualTo("coupon");
        assertThat(code.getPromotion().getCoupon()).isEqualTo(percent.getId());

        var found = stripeClient()
                .v1()
                .promotionCodes()
                .list(PromotionCodeListParams.builder()
                        .setCode(text.toLowerCase())
                        .setActive(true)
                        .build());
        assertThat(found.getData()).extracting(PromotionCode::getId).containsExactly(code.getId());

        PromotionCode inactive = stripeClient()
                .v1()
                .promotionCodes()
                .update(
                        code.getId(),
                        PromotionCodeUpdateParams.builder().setActive(false).build());
        assertThat(inactive.getActive()).isFalse();
        assertThat(stripeClient()
                        .v1()
                        .promotionCodes()
                        .list(PromotionCodeListParams.builder()
                                .setCode(text)
                                .setActive(true)
                                .build())
                        .getData())
                .isEmpty();
        // an inactive code's text can be given to a new code
        assertThat(coupons().promotionCode(amount, text).getActive()).isTrue();
    }

    @Test
    void shouldRefuseCouponsAndCodesAsStripeDoesAndMakeNothing() throws StripeException {
        long coupons = count("select count(*) from sandbox.sandbox_coupons");
        assertRefused("/v1/coupons", "percent_off=10&amount_off=100&currency=usd", "parameter_invalid");
        assertRefused("/v1/coupons", "duration=once", "parameter_invalid");
        assertRefused("/v1/coupons", "percent_off=0", "parameter_invalid");
        assertRefused("/v1/coupons", "percent_off=100.5", "parameter_invalid");
        assertRefused("/v1/coupons", "amount_off=100", "parameter_missing");
        assertRefused("/v1/coupons", "amount_off=100&currency=eur", "parameter_invalid");
        assertRefused("/v1/coupons", "percent_off=10&duration=repeating", "parameter_invalid");
        assertRefused("/v1/coupons", "percent_off=10&duration=forever&duration_in_months=3", "parameter_invalid");
        assertRefused("/v1/coupons", "percent_off=10&duration=sometimes", "parameter_invalid");
        assertThat(count("select count(*) from sandbox.sandbox_coupons")).isEqualTo(coupons);

        Coupon coupon = coupons().percentOff("10", CouponCreateParams.Duration.ONCE);
        assertRefused("/v1/coupons", "id=" + coupon.getId() + "&percent_off=20", "resource_already_exists");
        String text = uniqueCode("Dup");
        coupons().promotionCode(coupon, text);
        long codes = count("select count(*) from sandbox.sandbox_promotion_codes");
        assertRefused(
                "/v1/promotion_codes",
                "promotion[type]=coupon&promotion[coupon]=" + coupon.getId() + "&code=" + text.toLowerCase(),
                "parameter_invalid");
        assertRefused(
                "/v1/promotion_codes",
                "promotion[type]=coupon&promotion[coupon]=nope&code=" + uniqueCode("X"),
                "resource_missing");
        assertRefused(
                "/v1/promotion_codes",
                "promotion[type]=coupon&promotion[coupon]=" + coupon.getId() + "&expires_at=1000",
                "parameter_invalid");
        assertRefused(
                "/v1/promotion_codes",
                "promotion[type]=coupon&promotion[coupon]=" + coupon.getId() + "&code=no%20spaces",
                "parameter_invalid");
        assertThat(count("select count(*) from sandbox.sandbox_promotion_codes"))
                .isEqualTo(codes);
        assertStripeError(stripeApi("GET", "/v1/promotion_codes/promo_nope", null), 404, "resource_missing");
        assertStripeError(stripeApi("GET", "/v1/coupons/nope", null), 404, "resource_missing");
    }

    @Test
    void shouldTakeAOnceCouponOffTheFirstInvoiceOnlyAndCountTheRedemption() throws StripeException {
        Coupon coupon = coupons().percentOff("25", CouponCreateParams.Duration.ONCE);
        PromotionCode code = coupons().promotionCode(coupon, uniqueCode("Once"));
        Session session = checkout("once-coupon@example.com", p -> withCode(p, code));
        assertThat(session.getDiscounts()).hasSize(1);
        assertThat(session.getDiscounts().get(0).getPromotionCode()).isEqualTo(code.getId());
        assertThat(session.getAllowPromotionCodes()).isFalse();

        String subscriptionId = payAndSubscribe(session);

        Invoice first = latestInvoice(subscriptionId);
        assertAmounts(first, 2000, 500, 0, 1500);
        assertThat(first.getAmountPaid()).isEqualTo(1500L);
        assertThat(first.getDiscounts()).hasSize(1);
        assertThat(stripeClient().v1().promotionCodes().retrieve(code.getId()).getTimesRedeemed())
                .isEqualTo(1L);
        assertThat(stripeClient().v1().coupons().retrieve(coupon.getId()).getTimesRedeemed())
                .isEqualTo(1L);
        assertThat(stripeClient().v1().subscriptions().retrieve(subscriptionId).getDiscounts())
                .isEmpty();

        assertAmounts(renew(subscriptionId), 2000, 0, 0, 2000);
    }

    @Test
    void shouldTakeARepeatingCouponOffTheInvoicesOfItsMonthsIncludingUsageItems() throws StripeException {
        Coupon coupon = coupons().coupon(c -> c.setAmountOff(500L)
                .setCurrency("usd")
                .setDuration(CouponCreateParams.Duration.REPEATING)
                .setDurationInMonths(2L));
        PromotionCode code = coupons().promotionCode(coupon, uniqueCode("Two"));
        Session session = checkout("repeating@example.com", p -> withCode(p, code));
        String subscriptionId = payAndSubscribe(session);
        Subscription subscription = stripeClient().v1().subscriptions().retrieve(subscriptionId);
        assertThat(subscription.getDiscounts()).hasSize(1);

        assertAmounts(latestInvoice(subscriptionId), 2000, 500, 0, 1500);
        stripeClient().v1().invoiceItems().create(usage(session.getCustomer(), 1000));
        assertAmounts(renew(subscriptionId), 3000, 500, 0, 2500);
        assertAmounts(renew(subscriptionId), 2000, 0, 0, 2000);
    }

    @Test
    void shouldTakeAForeverPercentOffEveryInvoiceAndTaxWhatRemainsByTheCountry() throws StripeException {
        Coupon coupon = coupons().percentOff("12.5", CouponCreateParams.Duration.FOREVER);
        PromotionCode code = coupons().promotionCode(coupon, uniqueCode("Ever"));
        Session session = checkout("forever-de@example.com", p -> taxed(withCode(p, code)));
        assertThat(session.getAutomaticTax().getEnabled()).isTrue();
        assertThat(session.getBillingAddressCollection()).isEqualTo("required");

        Reply paid = pay(session, "{\"outcome\":\"succeeded\",\"country\":\"de\"}");
        assertThat(paid.status()).as(paid.body()).isEqualTo(303);
        String subscriptionId = checkoutSession(session).getSubscription();
        assertThat(stripeClient()
                        .v1()
                        .customers()
                        .retrieve(session.getCustomer())
                        .getAddress()
                        .getCountry())
                .isEqualTo("DE");
        assertThat(stripeClient()
                        .v1()
                        .subscriptions()
                        .retrieve(subscriptionId)
                        .getAutomaticTax()
                        .getEnabled())
                .isTrue();

        // 2000 - 250 = 1750, 19 %: 332.50 -> 333 (half up)
        Invoice first = latestInvoice(subscriptionId);
        assertAmounts(first, 2000, 250, 333, 2083);
        assertThat(first.getAutomaticTax().getEnabled()).isTrue();
        assertThat(first.getTotalTaxes().get(0).getTaxableAmount()).isEqualTo(1750L);
        assertThat(first.getAmountPaid()).isEqualTo(2083L);

        // a usage item of 150: 2150 - 268.75 -> 269 = 1881, 19 %: 357.39 -> 357
        stripeClient().v1().invoiceItems().create(usage(session.getCustomer(), 150));
        assertAmounts(renew(subscriptionId), 2150, 269, 357, 2238);
    }

    @Test
    void shouldTaxByTheSandboxsRatesOfGbAndOfEveryOtherCountry() throws StripeException {
        Session gb = checkout("gb@example.com", SandboxDiscountsTest::taxed);
        assertThat(pay(gb, "{\"country\":\"GB\"}").status()).isEqualTo(303);
        assertAmounts(latestInvoice(checkoutSession(gb).getSubscription()), 2000, 0, 400, 2400);

        Session us = checkout("us@example.com", SandboxDiscountsTest::taxed);
        assertThat(pay(us, "{\"country\":\"US\"}").status()).isEqualTo(303);
        assertAmounts(latestInvoice(checkoutSession(us).getSubscription()), 2000, 0, 0, 2000);
    }

    @Test
    void shouldRefuseAMissingOrUnknownCountryAndChangeNothing() throws StripeException {
        Session session = checkout("country@example.com", SandboxDiscountsTest::taxed);
        long events = settledEventCountAbout(session.getCustomer());

        assertStripeError(pay(session, "{\"outcome\":\"succeeded\"}"), 400, "parameter_invalid");
        assertStripeError(pay(session, "{\"country\":\"XX\"}"), 400, "parameter_invalid");
        assertStripeError(pay(session, "{\"country\":\"DEU\"}"), 400, "parameter_invalid");
        assertStripeError(pay(session, "{\"country\":19}"), 400, "parameter_invalid");
        Reply declinedWithoutCountry = pay(session, "{\"outcome\":\"card_declined\"}");
        assertThat(declinedWithoutCountry.status()).isEqualTo(400);
        assertThat(declinedWithoutCountry.json().path("error").path("param").asString())
                .isEqualTo("country");

        Session after = checkoutSession(session);
        assertThat(after.getStatus()).isEqualTo("open");
        assertThat(after.getSubscription()).isNull();
        assertThat(stripeClient()
                        .v1()
                        .customers()
                        .retrieve(session.getCustomer())
                        .getAddress())
                .isNull();
        assertThat(settledEventCountAbout(session.getCustomer())).isEqualTo(events);
    }

    @Test
    void shouldTakeACodeTypedOnTheHostedPageAndRefuseOneThatCannotBeUsed() throws StripeException {
        Coupon coupon = coupons().percentOff("50", CouponCreateParams.Duration.ONCE);
        String text = uniqueCode("Typed");
        PromotionCode code = coupons().promotionCode(coupon, text);
        PromotionCode stale = coupons().promotionCode(coupon, uniqueCode("Stale"));
        jdbc.sql("update sandbox.sandbox_promotion_codes set expires_at = 1000 where id = ?")
                .param(stale.getId())
                .update();
        PromotionCode off = coupons().promotionCode(coupon, uniqueCode("Off"));
        stripeClient()
                .v1()
                .promotionCodes()
                .update(
                        off.getId(),
                        PromotionCodeUpdateParams.builder().setActive(false).build());
        Session session = checkout("typed@example.com", p -> p.setAllowPromotionCodes(true));
        assertThat(session.getAllowPromotionCodes()).isTrue();
        assertThat(page("/sandbox/checkout/" + session.getId()).body()).contains("id=\"promotion-code\"");

        for (String refused : new String[] {"NOPE-" + text, stale.getCode(), off.getCode()}) {
            assertStripeError(pay(session, "{\"promotion_code\":\"" + refused + "\"}"), 400, "parameter_invalid");
        }
        Reply onThePage =
                postForm("/sandbox/checkout/" + session.getId() + "/pay", "outcome=succeeded&promotion_code=nope");
        assertThat(onThePage.status()).isEqualTo(400);
        assertThat(onThePage.body()).contains("This code is invalid.");
        assertThat(checkoutSession(session).getStatus()).isEqualTo("open");
        assertThat(count("select count(*) from sandbox.sandbox_discounts where checkout_session = ?", session.getId()))
                .isZero();

        Reply paid = postForm(
                "/sandbox/checkout/" + session.getId() + "/pay",
                "outcome=succeeded&promotion_code=" + text.toLowerCase());
        assertThat(paid.status()).as(paid.body()).isEqualTo(303);
        assertAmounts(latestInvoice(checkoutSession(session).getSubscription()), 2000, 1000, 0, 1000);
        assertThat(stripeClient().v1().promotionCodes().retrieve(code.getId()).getTimesRedeemed())
                .isEqualTo(1L);
    }

    @Test
    void shouldRefuseACheckoutSessionWithAnUnusableCodeOrWithBothWaysOfDiscounting() throws StripeException {
        Coupon coupon = coupons().percentOff("10", CouponCreateParams.Duration.ONCE);
        PromotionCode code = coupons().promotionCode(coupon, uniqueCode("Both"));
        String customer = newCustomer("refused-session@example.com");
        String base = "mode=subscription&customer=" + customer + "&line_items[0][price]=price_sandbox_pro"
                + "&success_url=" + baseUrl() + "/api/v1/billing/checkout/success";
        long sessions = count("select count(*) from sandbox.sandbox_checkout_sessions where customer = ?", customer);

        assertRefused(
                "/v1/checkout/sessions",
                base + "&allow_promotion_codes=true&discounts[0][promotion_code]=" + code.getId(),
                "parameter_invalid");
        assertRefused("/v1/checkout/sessions", base + "&discounts[0][promotion_code]=promo_nope", "resource_missing");
        assertRefused("/v1/checkout/sessions", base + "&discounts[0][coupon]=nope", "resource_missing");
        assertRefused("/v1/checkout/sessions", base + "&billing_address_collection=sometimes", "parameter_invalid");
        stripeClient()
                .v1()
                .promotionCodes()
                .update(
                        code.getId(),
                        PromotionCodeUpdateParams.builder().setActive(false).build());
        assertRefused(
                "/v1/checkout/sessions", base + "&discounts[0][promotion_code]=" + code.getId(), "parameter_invalid");

        assertThat(count("select count(*) from sandbox.sandbox_checkout_sessions where customer = ?", customer))
                .isEqualTo(sessions);
    }

    private static InvoiceItemCreateParams usage(String customer, long cents) {
        return overageItem(customer, 1, BigDecimal.valueOf(cents)).build();
    }
}
