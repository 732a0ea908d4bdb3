package com.kvportal.sandbox.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.kvportal.sandbox.store.CardOutcome;
import com.kvportal.sandbox.store.StoredCheckoutSession;
import com.kvportal.sandbox.store.StoredCustomer;
import com.kvportal.sandbox.store.StoredInvoice;
import com.kvportal.sandbox.store.StoredInvoiceItem;
import com.kvportal.sandbox.store.StoredPrice;
import com.kvportal.sandbox.store.StoredPromotionCode;
import com.kvportal.sandbox.store.StoredSubscription;
import com.stripe.Stripe;
import com.stripe.model.Customer;
import com.stripe.model.Event;
import com.stripe.model.Invoice;
import com.stripe.model.InvoiceItem;
import com.stripe.model.Price;
import com.stripe.model.PromotionCode;
import com.stripe.model.StripeObject;
import com.stripe.model.Subscription;
import com.stripe.model.checkout.Session;
import com.stripe.net.ApiResource;
import com.stripe.net.Webhook;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The sandbox's objects are stripe-java's own models written by stripe-java's Gson: what the sandbox renders, stripe-java
 * reads back field for field, and its events pass stripe-java's own signature check.
 */
class StripeJsonTest {

    private static final long NOW = 1_767_225_600L;
    private static final long MONTH_LATER = 1_769_904_000L;

    private final StripeJson json = new StripeJson(path -> "http://sandbox.test" + path);

    private final StoredPrice price =
            new StoredPrice("price_sandbox_pro", "prod_sandbox_pro", "Pro", 2000, "usd", "month", NOW);
    private final StoredCustomer customer = new StoredCustomer(
            "cus_Test",
            "owner@example.com",
            "Acme",
            Map.of("organization_id", "org-1"),
            CardOutcome.SUCCEEDED,
            NOW,
            null);
    private final StoredSubscription subscription = new StoredSubscription(
            "sub_Test",
            "cus_Test",
            "active",
            "price_sandbox_pro",
            1,
            "si_Test",
            NOW,
            NOW,
            NOW,
            MONTH_LATER,
            false,
            null,
            null,
            null,
            Map.of("organization_id", "org-1"),
            "in_Test",
            NOW,
            null,
            null);

    @Test
    void shouldReadACustomerBackFieldForField() {
        Customer customer = roundTrip(json.customer(this.customer), Customer.class);

        assertThat(customer.getId()).isEqualTo("cus_Test");
        assertThat(customer.getEmail()).isEqualTo("owner@example.com");
        assertThat(customer.getMetadata()).containsEntry("organization_id", "org-1");
        assertThat(customer.getLivemode()).isFalse();
    }

    @Test
    void shouldReadAPriceAndACheckoutSessionBackFieldForField() {
        Price price = roundTrip(json.price(this.price), Price.class);
        StoredCheckoutSession open = new StoredCheckoutSession(
                "cs_test_Test",
                "open",
                "unpaid",
                "subscription",
                "cus_Test",
                null,
                "org-1",
                Map.of("organization_id", "org-1"),
                "price_sandbox_pro",
                1,
                "http://portal.test/success?session_id={CHECKOUT_SESSION_ID}",
                null,
                Map.of(),
                null,
                NOW,
                NOW + 86_400,
                null,
                false,
                "auto",
                false,
                null);
        Session session = roundTrip(json.checkoutSession(open, this.price, null), Session.class);

        assertThat(price.getUnitAmount()).isEqualTo(2000L);
        assertThat(price.getRecurring().getInterval()).isEqualTo("month");
        assertThat(session.getUrl()).isEqualTo("http://sandbox.test/sandbox/checkout/cs_test_Test");
        assertThat(session.getCustomer()).isEqualTo("cus_Test");
        assertThat(session.getAmountTotal()).isEqualTo(2000L);
        assertThat(session.getClientReferenceId()).isEqualTo("org-1");
    }

    @Test
    void shouldReadASubscriptionWithItsItemPeriodBackFieldForField() {
        Subscription subscription = roundTrip(json.subscription(this.subscription, price), Subscription.class);

        assertThat(subscription.getItems().getData().get(0).getCurrentPeriodEnd())
                .isEqualTo(MONTH_LATER);
        assertThat(subscription.getItems().getData().get(0).getPrice().getId()).isEqualTo("price_sandbox_pro");
        assertThat(subscription.getLatestInvoice()).isEqualTo("in_Test");
        assertThat(subscription.getCancelAt()).isNull();
        assertThat(subscription.getStatus()).isEqualTo("active");
    }

    @Test
    void shouldReadARenewalDraftWithItsSubscriptionAndItemLinesBackFieldForField() {
        StoredInvoice draft = StoredInvoice.draft(
                        "in_Test",
                        subscription,
                        "subscription_cycle",
                        price,
                        NOW,
                        MONTH_LATER,
                        MONTH_LATER,
                        MONTH_LATER + 2_592_000,
                        MONTH_LATER,
                        MONTH_LATER + 3600)
                .withLineOf(1000);
        StoredInvoiceItem item = new StoredInvoiceItem(
                "ii_Test",
                "cus_Test",
                "in_Test",
                "il_Item",
                5,
                new BigDecimal("200"),
                1000,
                "usd",
                "Storage overage: 5 × 10 GiB",
                NOW,
                MONTH_LATER,
                Map.of("kind", "storage_overage"),
                MONTH_LATER,
                false);

        Invoice invoice = roundTrip(
                json.invoice(new StripeJson.InvoiceView(draft, price, customer, subscription, List.of(item))),
                Invoice.class);

        assertThat(invoice.getStatus()).isEqualTo("draft");
        assertThat(invoice.getBillingReason()).isEqualTo("subscription_cycle");
        assertThat(invoice.getAmountDue()).isEqualTo(3000L);
        assertThat(invoice.getPeriodStart()).isEqualTo(NOW);
        assertThat(invoice.getParent().getSubscriptionDetails().getSubscription())
                .isEqualTo("sub_Test");
        assertThat(invoice.getLines().getData()).hasSize(2);
        assertThat(invoice.getLines().getData().get(0).getAmount()).isEqualTo(2000L);
        assertThat(invoice.getLines().getData().get(1).getMetadata()).containsEntry("kind", "storage_overage");
        assertThat(invoice.getLines()
                        .getData()
                        .get(1)
                        .getParent()
                        .getInvoiceItemDetails()
                        .getInvoiceItem())
                .isEqualTo("ii_Test");
        assertThat(invoice.getHostedInvoiceUrl()).isNull();
        InvoiceItem parsedItem = roundTrip(json.invoiceItem(item), InvoiceItem.class);
        assertThat(parsedItem.getPricing().getUnitAmountDecimal()).isEqualByComparingTo("200");
    }

    @Test
    void shouldSignEventsThatStripeJavasWebhookCheckAccepts() throws Exception {
        Event event = new Event();
        event.setId("evt_Test");
        event.setObject("event");
        event.setApiVersion(Stripe.API_VERSION);
        event.setCreated(NOW);
        Event.Data data = new Event.Data();
        data.setObject(StripeJson.tree(json.customer(customer)));
        event.setData(data);
        event.setType("customer.created");
        String payload = StripeJson.GSON.toJson(event);
        long now = System.currentTimeMillis() / 1000;
        String header = "t=" + now + ",v1=" + Webhook.Util.computeHmacSha256("whsec_test", now + "." + payload);

        Event verified = Webhook.constructEvent(payload, header, "whsec_test", 300);

        assertThat(verified.getId()).isEqualTo("evt_Test");
        assertThat(((Customer) verified.getDataObjectDeserializer().getObject().orElseThrow()).getEmail())
                .isEqualTo("owner@example.com");
    }

    @Test
    void shouldRenderAStoredRecordByItsComponentsStripeNamesWithItsObjectAndFields() {
        StoredPromotionCode stored =
                new StoredPromotionCode("promo_Test", "SAVE20", "co_Test", true, null, 5L, 2, Map.of("a", "b"), NOW);

        JsonObject code = StripeJson.tree(StripeDiscountJson.promotionCode(stored));

        assertThat(code.get("object").getAsString()).isEqualTo("promotion_code");
        assertThat(code.get("livemode").getAsBoolean()).isFalse();
        assertThat(code.get("max_redemptions").getAsLong()).isEqualTo(5);
        assertThat(code.get("times_redeemed").getAsLong()).isEqualTo(2);
        assertThat(code.get("expires_at").isJsonNull()).isTrue();
        assertThat(code.getAsJsonObject("metadata").get("a").getAsString()).isEqualTo("b");
        assertThat(code.getAsJsonObject("promotion").get("coupon").getAsString())
                .isEqualTo("co_Test");
        // the record's coupon is shown where Stripe shows it, not as a field of its own
        assertThat(code.has("coupon")).isFalse();
        roundTrip(StripeDiscountJson.promotionCode(stored), PromotionCode.class);
    }

    /** Renders the object, reads it back with stripe-java, and checks that no field was lost or changed. */
    private static <T extends StripeObject> T roundTrip(T rendered, Class<T> type) {
        String written = StripeJson.GSON.toJson(rendered);
        T parsed = ApiResource.GSON.fromJson(written, type);
        JsonObject before = StripeJson.tree(rendered);
        JsonObject after = StripeJson.tree(parsed);
        assertThat(after).isEqualTo(before);
        return parsed;
    }
}
