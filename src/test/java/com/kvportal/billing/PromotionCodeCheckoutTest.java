package com.kvportal.billing;

import static com.kvportal.support.Coupons.uniqueCode;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.Coupons;
import com.kvportal.support.IntegrationTest;
import com.stripe.exception.StripeException;
import com.stripe.model.PromotionCode;
import com.stripe.model.checkout.Session;
import com.stripe.param.CouponCreateParams;
import com.stripe.param.PromotionCodeUpdateParams;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Checkout with a promotion code (its text, looked up at the provider), or with the hosted page's field for one; the
 * discount on the subscription's invoices, as the provider computed it, in the invoices of the API.
 */
class PromotionCodeCheckoutTest extends IntegrationTest {

    private static final Duration WEBHOOK_WAIT = Duration.ofSeconds(20);

    private Api owner() {
        Api owner = api();
        owner.signup();
        return owner;
    }

    private PromotionCode code(String percent, CouponCreateParams.Duration duration, String text)
            throws StripeException {
        return new Coupons(stripeClient()).percentOffCode(percent, duration, text);
    }

    /** The organization's invoices in the API once one of them meets {@code condition}. */
    static List<JsonNode> invoicesOnce(Api owner, Predicate<JsonNode> condition) {
        Awaitility.await("an invoice as expected").atMost(WEBHOOK_WAIT).until(() -> invoices(owner).stream()
                .anyMatch(condition));
        return invoices(owner);
    }

    static List<JsonNode> invoices(Api owner) {
        List<JsonNode> invoices = new ArrayList<>();
        owner.get("/api/v1/billing/invoices").json().get("invoices").forEach(invoices::add);
        return invoices;
    }

    static void assertAmounts(JsonNode invoice, long subtotal, long discount, long tax, long due) {
        assertThat(invoice.get("subtotal_cents").asLong()).as("subtotal_cents").isEqualTo(subtotal);
        assertThat(invoice.get("discount_cents").asLong()).as("discount_cents").isEqualTo(discount);
        assertThat(invoice.get("tax_cents").asLong()).as("tax_cents").isEqualTo(tax);
        assertThat(invoice.get("amount_due_cents").asLong())
                .as("amount_due_cents")
                .isEqualTo(due);
    }

    static List<String> kinds(JsonNode invoice) {
        List<String> kinds = new ArrayList<>();
        invoice.get("lines").forEach(line -> kinds.add(line.get("kind").asString()));
        return kinds;
    }

    @Test
    void shouldRefuseAnUnknownInactiveExpiredOrUsedUpCodeAndStartNothing() throws StripeException {
        Api owner = api();
        String organizationId = owner.signup().organizationId().toString();
        PromotionCode inactive = code("10", CouponCreateParams.Duration.ONCE, uniqueCode("Off"));
        stripeClient()
                .v1()
                .promotionCodes()
                .update(
                        inactive.getId(),
                        PromotionCodeUpdateParams.builder().setActive(false).build());
        PromotionCode expired = code("10", CouponCreateParams.Duration.ONCE, uniqueCode("Old"));
        jdbc.sql("update sandbox.sandbox_promotion_codes set expires_at = 1000 where id = ?")
                .param(expired.getId())
                .update();
        PromotionCode usedUp = code("10", CouponCreateParams.Duration.ONCE, uniqueCode("Used"));
        jdbc.sql("update sandbox.sandbox_promotion_codes set max_redemptions = 1, times_redeemed = 1 where id = ?")
                .param(usedUp.getId())
                .update();

        for (String refused :
                List.of(uniqueCode("Nope"), inactive.getCode(), expired.getCode(), usedUp.getCode(), "no spaces!")) {
            Api.Response checkout =
                    owner.post("/api/v1/billing/checkout", Map.of("tier", "pro", "promotion_code", refused));
            assertThat(checkout.status()).as(refused + ": " + checkout).isEqualTo(400);
            assertThat(checkout.code()).isEqualTo("promotion_code_invalid");
            assertThat(checkout.json().get("detail").asString())
                    .contains(refused)
                    .contains("check out without a code");
        }

        assertThat(count("select count(*) from checkout_sessions where organization_id = ?::uuid", organizationId))
                .isZero();
        assertThat(count("select count(*) from billing_accounts where organization_id = ?::uuid", organizationId))
                .isZero();
        assertThat(count(
                        "select count(*) from sandbox.sandbox_customers where metadata->>'organization_id' = ?",
                        organizationId))
                .isZero();
        assertThat(owner.get("/api/v1/billing/subscription").status()).isEqualTo(404);
    }

    @Test
    void shouldCheckOutWithACodeAndShowItsDiscountOnTheInvoicesAsTheProviderComputedIt() throws StripeException {
        Api owner = owner();
        String text = uniqueCode("Spring");
        PromotionCode code = code("25", CouponCreateParams.Duration.FOREVER, text);

        Api.Response checkout = owner.post(
                "/api/v1/billing/checkout", Map.of("tier", "pro", "promotion_code", " " + text.toLowerCase()));
        assertThat(checkout.status()).as(checkout.toString()).isEqualTo(200);
        String sessionId = checkout.json().get("session_id").asString();
        Session session = stripeClient().v1().checkout().sessions().retrieve(sessionId);
        assertThat(session.getDiscounts()).hasSize(1);
        assertThat(session.getDiscounts().get(0).getPromotionCode()).isEqualTo(code.getId());
        assertThat(session.getAllowPromotionCodes()).isFalse();
        assertThat(session.getAutomaticTax().getEnabled()).isFalse();

        Api.Response paid = api().payCheckout(sessionId, "succeeded");
        assertThat(paid.status()).as(paid.toString()).isEqualTo(303);

        JsonNode first = invoicesOnce(owner, i -> i.get("status").asString().equals("paid"))
                .get(0);
        assertAmounts(first, 2000, 500, 0, 1500);
        assertThat(first.get("amount_paid_cents").asLong()).isEqualTo(1500);
        assertThat(kinds(first)).containsExactly("subscription", "discount");
        assertThat(first.get("lines").get(1).get("amount_cents").asLong()).isEqualTo(-500);

        // an upgrade: the discount is taken off the whole change invoice, its proration credit included
        Api.Response changed = owner.post("/api/v1/billing/change-plan", Map.of("tier", "team"));
        assertThat(changed.status()).as(changed.toString()).isEqualTo(200);
        JsonNode change = invoicesOnce(owner, i -> kinds(i).contains("proration")).stream()
                .filter(i -> kinds(i).contains("proration"))
                .findFirst()
                .orElseThrow();
        long subtotal = change.get("subtotal_cents").asLong();
        assertThat(subtotal).isBetween(10000L - 2000, 10000L);
        long discount = new BigDecimal(subtotal)
                .multiply(new BigDecimal("0.25"))
                .setScale(0, java.math.RoundingMode.HALF_UP)
                .longValueExact();
        assertAmounts(change, subtotal, discount, 0, subtotal - discount);
        assertThat(kinds(change)).containsExactly("subscription", "proration", "discount");
    }

    @Test
    void shouldOfferTheHostedPagesFieldForACodeWhenCheckoutHasNone() throws StripeException {
        Api owner = owner();
        String text = uniqueCode("Typed");
        code("50", CouponCreateParams.Duration.ONCE, text);

        Api.Response checkout = owner.post("/api/v1/billing/checkout", Map.of("tier", "pro"));
        assertThat(checkout.status()).as(checkout.toString()).isEqualTo(200);
        String sessionId = checkout.json().get("session_id").asString();
        Session session = stripeClient().v1().checkout().sessions().retrieve(sessionId);
        assertThat(session.getAllowPromotionCodes()).isTrue();
        assertThat(session.getDiscounts()).isNullOrEmpty();
        Api browser = api();
        assertThat(browser.get("/sandbox/checkout/" + sessionId).body()).contains("name=\"promotion_code\"");

        Api.Response paid = browser.post(
                "/sandbox/checkout/" + sessionId + "/pay", Map.of("outcome", "succeeded", "promotion_code", text));
        assertThat(paid.status()).as(paid.toString()).isEqualTo(303);
        JsonNode first = invoicesOnce(owner, i -> i.get("status").asString().equals("paid"))
                .get(0);
        assertAmounts(first, 2000, 1000, 0, 1000);
    }
}
