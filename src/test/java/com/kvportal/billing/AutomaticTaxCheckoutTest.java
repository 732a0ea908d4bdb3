package com.kvportal.billing;

import static com.kvportal.billing.PromotionCodeCheckoutTest.assertAmounts;
import static com.kvportal.billing.PromotionCodeCheckoutTest.invoicesOnce;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.Coupons;
import com.kvportal.support.IntegrationTest;
import com.stripe.exception.StripeException;
import com.stripe.model.checkout.Session;
import com.stripe.param.CouponCreateParams;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * {@code STRIPE_AUTOMATIC_TAX=on}: checkout collects the billing address and enables automatic tax; the sandbox taxes
 * the invoices by the country entered on its hosted page, after discounts, and the API's invoices carry the tax.
 */
@TestPropertySource(properties = "STRIPE_AUTOMATIC_TAX=on")
class AutomaticTaxCheckoutTest extends IntegrationTest {

    private String checkout(Api owner) throws StripeException {
        Api.Response checkout = owner.post("/api/v1/billing/checkout", Map.of("tier", "pro"));
        assertThat(checkout.status()).as(checkout.toString()).isEqualTo(200);
        String sessionId = checkout.json().get("session_id").asString();
        Session session = stripeClient().v1().checkout().sessions().retrieve(sessionId);
        assertThat(session.getAutomaticTax().getEnabled()).isTrue();
        assertThat(session.getBillingAddressCollection()).isEqualTo("required");
        return sessionId;
    }

    @Test
    void shouldTaxTheInvoicesByTheBillingAddressesCountryAfterTheDiscount() throws StripeException {
        Api owner = api();
        owner.signup();
        String sessionId = checkout(owner);
        assertThat(api().get("/sandbox/checkout/" + sessionId).body()).contains("name=\"country\"");
        String text = Coupons.uniqueCode("Tax");
        new Coupons(stripeClient()).percentOffCode("10", CouponCreateParams.Duration.ONCE, text);

        Api.Response paid = api().post(
                        "/sandbox/checkout/" + sessionId + "/pay",
                        Map.of("outcome", "succeeded", "country", "GB", "promotion_code", text));
        assertThat(paid.status()).as(paid.toString()).isEqualTo(303);

        // 2000 - 200 = 1800, 20 %: 360
        JsonNode first = invoicesOnce(owner, i -> i.get("status").asString().equals("paid"))
                .get(0);
        assertAmounts(first, 2000, 200, 360, 2160);
        assertThat(first.get("amount_paid_cents").asLong()).isEqualTo(2160);
    }

    @Test
    void shouldRefuseAPaymentWithoutAUsableCountryAndSubscribeNobody() throws StripeException {
        Api owner = api();
        owner.signup();
        String sessionId = checkout(owner);

        for (Map<String, String> body :
                new Map[] {Map.of("outcome", "succeeded"), Map.of("country", "ZZ"), Map.of("country", "Germany")}) {
            Api.Response refused = api().post("/sandbox/checkout/" + sessionId + "/pay", body);
            assertThat(refused.status()).as(body + ": " + refused).isEqualTo(400);
            assertThat(refused.json().path("error").path("param").asString()).isEqualTo("country");
            assertThat(refused.json().path("error").path("message").asString()).contains("ISO 3166-1");
        }

        assertThat(stripeClient().v1().checkout().sessions().retrieve(sessionId).getStatus())
                .isEqualTo("open");
        assertThat(owner.get("/api/v1/billing/subscription").status()).isEqualTo(404);
        Api.Response paid =
                api().post("/sandbox/checkout/" + sessionId + "/pay", Map.of("outcome", "succeeded", "country", "de"));
        assertThat(paid.status()).as(paid.toString()).isEqualTo(303);
        assertAmounts(
                invoicesOnce(owner, i -> i.get("status").asString().equals("paid"))
                        .get(0),
                2000,
                0,
                380,
                2380);
    }
}
