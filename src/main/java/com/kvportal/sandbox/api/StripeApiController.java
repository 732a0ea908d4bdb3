package com.kvportal.sandbox.api;

import com.kvportal.sandbox.checkout.StripeCheckout;
import com.kvportal.sandbox.customer.StripeCustomers;
import com.kvportal.sandbox.discount.StripeDiscounts;
import com.kvportal.sandbox.events.EventOutbox;
import com.kvportal.sandbox.invoice.StripeInvoices;
import com.kvportal.sandbox.invoice.StripeRefunds;
import com.kvportal.sandbox.portal.StripePortalSessions;
import com.kvportal.sandbox.store.SandboxObjects;
import com.kvportal.sandbox.stripe.StripeError;
import com.kvportal.sandbox.stripe.StripeJson;
import com.kvportal.sandbox.stripe.StripeParams;
import com.kvportal.sandbox.subscription.StripePlanChanges;
import com.kvportal.sandbox.subscription.StripeSubscriptionSchedules;
import com.kvportal.sandbox.subscription.StripeSubscriptions;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import lombok.RequiredArgsConstructor;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The part of Stripe's REST API that the service uses, at Stripe's paths under {@code /sandbox/stripe}: one method
 * per endpoint. Any {@code sk_test_} key ({@link StripeCallResolver}), Stripe's form encoding, JSON shapes and
 * errors ({@link StripeErrorAdvice}), {@code expand}, and {@code Idempotency-Key} ({@link StripeAnswers}).
 */
@RestController
@RequestMapping(StripeApiController.PREFIX)
@RequiredArgsConstructor
public class StripeApiController {

    public static final String PREFIX = "/sandbox/stripe";

    private final StripeAnswers answers;
    private final StripeCustomers customers;
    private final StripeCheckout checkout;
    private final StripeSubscriptions subscriptions;
    private final StripePlanChanges planChanges;
    private final StripeSubscriptionSchedules schedules;
    private final StripePortalSessions portalSessions;
    private final StripeInvoices invoices;
    private final StripeRefunds refunds;
    private final StripeDiscounts discounts;
    private final SandboxObjects objects;
    private final StripeJson json;
    private final EventOutbox outbox;

    // customers

    @PostMapping("/v1/customers")
    ResponseEntity<String> createCustomer(StripeCall call) {
        return answers.post(call, () -> customers.create(call.params()));
    }

    @GetMapping("/v1/customers/{id}")
    ResponseEntity<String> customer(@PathVariable String id, StripeCall call) {
        return answers.read(call, () -> customers.retrieve(id));
    }

    @PostMapping("/v1/customers/{id}")
    ResponseEntity<String> updateCustomer(@PathVariable String id, StripeCall call) {
        return answers.post(call, () -> customers.update(id, call.params()));
    }

    // checkout and portal sessions

    @PostMapping("/v1/checkout/sessions")
    ResponseEntity<String> createCheckoutSession(StripeCall call) {
        return answers.post(call, () -> checkout.create(call.params()));
    }

    @GetMapping("/v1/checkout/sessions/{id}")
    ResponseEntity<String> checkoutSession(@PathVariable String id, StripeCall call) {
        return answers.read(call, () -> checkout.retrieve(id));
    }

    @PostMapping("/v1/checkout/sessions/{id}/expire")
    ResponseEntity<String> expireCheckoutSession(@PathVariable String id, StripeCall call) {
        return answers.post(call, () -> checkout.expire(id));
    }

    @PostMapping("/v1/billing_portal/sessions")
    ResponseEntity<String> createPortalSession(StripeCall call) {
        return answers.post(call, () -> portalSessions.create(call.params()));
    }

    // subscriptions

    @GetMapping("/v1/subscriptions")
    ResponseEntity<String> subscriptions(StripeCall call) {
        StripeParams params = call.params();
        return answers.read(
                call, () -> subscriptions.list(params.text("customer"), params.text("status"), params.limit()));
    }

    @GetMapping("/v1/subscriptions/{id}")
    ResponseEntity<String> subscription(@PathVariable String id, StripeCall call) {
        return answers.read(call, () -> subscriptions.retrieve(id));
    }

    @PostMapping("/v1/subscriptions/{id}")
    ResponseEntity<String> updateSubscription(@PathVariable String id, StripeCall call) {
        return answers.post(call, () -> subscriptions.update(id, call.params()));
    }

    @DeleteMapping("/v1/subscriptions/{id}")
    ResponseEntity<String> cancelSubscription(@PathVariable String id, StripeCall call) {
        return answers.read(call, () -> subscriptions.cancel(id));
    }

    // subscription schedules

    @PostMapping("/v1/subscription_schedules")
    ResponseEntity<String> createSchedule(StripeCall call) {
        return answers.post(call, () -> schedules.create(call.params()));
    }

    @GetMapping("/v1/subscription_schedules/{id}")
    ResponseEntity<String> schedule(@PathVariable String id, StripeCall call) {
        return answers.read(call, () -> schedules.retrieve(id));
    }

    @PostMapping("/v1/subscription_schedules/{id}")
    ResponseEntity<String> updateSchedule(@PathVariable String id, StripeCall call) {
        return answers.post(call, () -> schedules.update(id, call.params()));
    }

    @PostMapping("/v1/subscription_schedules/{id}/release")
    ResponseEntity<String> releaseSchedule(@PathVariable String id, StripeCall call) {
        return answers.post(call, () -> schedules.release(id, call.params()));
    }

    @PostMapping("/v1/subscription_schedules/{id}/cancel")
    ResponseEntity<String> cancelSchedule(@PathVariable String id, StripeCall call) {
        return answers.post(call, () -> schedules.cancel(id, call.params()));
    }

    // invoices and invoice items

    @GetMapping("/v1/invoices")
    ResponseEntity<String> invoices(StripeCall call) {
        StripeParams params = call.params();
        return answers.read(
                call,
                () -> invoices.list(
                        params.text("customer"), params.text("subscription"), params.text("status"), params.limit()));
    }

    @PostMapping("/v1/invoices")
    ResponseEntity<String> createInvoice(StripeCall call) {
        return answers.post(call, () -> invoices.createInvoice(call.params()));
    }

    @PostMapping("/v1/invoices/create_preview")
    ResponseEntity<String> previewInvoice(StripeCall call) {
        return answers.post(call, () -> planChanges.preview(call.params()));
    }

    @GetMapping("/v1/invoices/{id}")
    ResponseEntity<String> invoice(@PathVariable String id, StripeCall call) {
        return answers.read(call, () -> invoices.retrieve(id));
    }

    @PostMapping("/v1/invoices/{id}/finalize")
    ResponseEntity<String> finalizeInvoice(@PathVariable String id, StripeCall call) {
        return answers.post(call, () -> invoices.finalizeInvoice(id, call.params()));
    }

    @GetMapping("/v1/invoice_payments")
    ResponseEntity<String> invoicePayments(StripeCall call) {
        return answers.read(
                call,
                () -> refunds.invoicePayments(
                        call.params().text("invoice"), call.params().limit()));
    }

    // refunds

    @PostMapping("/v1/refunds")
    ResponseEntity<String> createRefund(StripeCall call) {
        return answers.post(call, () -> refunds.create(call.params()));
    }

    @GetMapping("/v1/refunds")
    ResponseEntity<String> refunds(StripeCall call) {
        StripeParams params = call.params();
        return answers.read(
                call, () -> refunds.list(params.text("payment_intent"), params.text("charge"), params.limit()));
    }

    @GetMapping("/v1/refunds/{id}")
    ResponseEntity<String> refund(@PathVariable String id, StripeCall call) {
        return answers.read(call, () -> refunds.retrieve(id));
    }

    @PostMapping("/v1/invoiceitems")
    ResponseEntity<String> createInvoiceItem(StripeCall call) {
        return answers.post(call, () -> invoices.createInvoiceItem(call.params()));
    }

    @GetMapping("/v1/invoiceitems")
    ResponseEntity<String> invoiceItems(StripeCall call) {
        StripeParams params = call.params();
        return answers.read(
                call, () -> invoices.listItems(params.text("customer"), params.text("starting_after"), params.limit()));
    }

    @DeleteMapping("/v1/invoiceitems/{id}")
    ResponseEntity<String> deleteInvoiceItem(@PathVariable String id, StripeCall call) {
        invoices.deleteItem(id);
        return answers.exactly(StripeJson.GSON.toJson(Map.of("id", id, "object", "invoiceitem", "deleted", true)));
    }

    @GetMapping("/v1/invoiceitems/{id}")
    ResponseEntity<String> invoiceItem(@PathVariable String id, StripeCall call) {
        return answers.read(call, () -> invoices.retrieveItem(id));
    }

    // coupons and promotion codes

    @PostMapping("/v1/coupons")
    ResponseEntity<String> createCoupon(StripeCall call) {
        return answers.post(call, () -> discounts.createCoupon(call.params()));
    }

    @GetMapping("/v1/coupons")
    ResponseEntity<String> coupons(StripeCall call) {
        return answers.read(call, () -> discounts.listCoupons(call.params().limit()));
    }

    @GetMapping("/v1/coupons/{id}")
    ResponseEntity<String> coupon(@PathVariable String id, StripeCall call) {
        return answers.read(call, () -> discounts.retrieveCoupon(id));
    }

    @PostMapping("/v1/promotion_codes")
    ResponseEntity<String> createPromotionCode(StripeCall call) {
        return answers.post(call, () -> discounts.createPromotionCode(call.params()));
    }

    @GetMapping("/v1/promotion_codes")
    ResponseEntity<String> promotionCodes(StripeCall call) {
        return answers.read(call, () -> discounts.listPromotionCodes(call.params()));
    }

    @GetMapping("/v1/promotion_codes/{id}")
    ResponseEntity<String> promotionCode(@PathVariable String id, StripeCall call) {
        return answers.read(call, () -> discounts.retrievePromotionCode(id));
    }

    @PostMapping("/v1/promotion_codes/{id}")
    ResponseEntity<String> updatePromotionCode(@PathVariable String id, StripeCall call) {
        return answers.post(call, () -> discounts.updatePromotionCode(id, call.params()));
    }

    // prices

    @GetMapping("/v1/prices/{id}")
    ResponseEntity<String> price(@PathVariable String id, StripeCall call) {
        return answers.read(
                call,
                () -> objects.price(id).map(json::price).orElseThrow(() -> StripeError.noSuch("price", id, "id")));
    }

    // events: the bodies exactly as they were delivered

    /** Newest first; {@code type} is a type or a group ({@code invoice.*}). */
    @GetMapping("/v1/events")
    ResponseEntity<String> events(StripeCall call) {
        int limit = call.params().limit();
        List<String> bodies = outbox.newest(call.params().text("type"), limit + 1);
        String data = bodies.stream().limit(limit).collect(Collectors.joining(","));
        return answers.exactly("{\"object\":\"list\",\"data\":[" + data + "],\"has_more\":" + (bodies.size() > limit)
                + ",\"url\":\"/v1/events\"}");
    }

    @GetMapping("/v1/events/{id}")
    ResponseEntity<String> event(@PathVariable String id, StripeCall call) {
        return answers.exactly(outbox.payload(id).orElseThrow(() -> StripeError.noSuch("event", id, "id")));
    }

    /** Any other path or method: Stripe's 404 for an unrecognized URL. */
    @RequestMapping("/**")
    ResponseEntity<String> unrecognized(StripeCall call) {
        throw StripeError.unrecognizedUrl(call.method(), call.path());
    }
}
