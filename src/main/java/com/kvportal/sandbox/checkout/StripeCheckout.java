package com.kvportal.sandbox.checkout;

import com.kvportal.sandbox.discount.StripeDiscounts;
import com.kvportal.sandbox.events.SandboxEvents;
import com.kvportal.sandbox.invoice.SandboxTaxRates;
import com.kvportal.sandbox.invoice.StripeInvoices;
import com.kvportal.sandbox.store.CardOutcome;
import com.kvportal.sandbox.store.SandboxObjects;
import com.kvportal.sandbox.store.StoredCheckoutSession;
import com.kvportal.sandbox.store.StoredCustomer;
import com.kvportal.sandbox.store.StoredDiscount;
import com.kvportal.sandbox.store.StoredInvoice;
import com.kvportal.sandbox.store.StoredPrice;
import com.kvportal.sandbox.store.StoredSubscription;
import com.kvportal.sandbox.stripe.RedirectUrls;
import com.kvportal.sandbox.stripe.StripeError;
import com.kvportal.sandbox.stripe.StripeId;
import com.kvportal.sandbox.stripe.StripeJson;
import com.kvportal.sandbox.stripe.StripeParams;
import com.kvportal.sandbox.stripe.StripeViews;
import com.kvportal.sandbox.subscription.StripeSubscriptions;
import com.stripe.model.checkout.Session;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The sandbox's checkout sessions: created through the API, paid on the hosted page (or the sandbox's surface) with
 * the customer, subscription, first invoice and events Stripe makes. Locks are taken customer first, then its
 * sessions, subscriptions and invoices, so that concurrent calls cannot deadlock.
 */
@Service
@RequiredArgsConstructor
public class StripeCheckout {

    private static final long CHECKOUT_SESSION_LIFETIME = 24 * 3600;

    private final SandboxObjects objects;
    private final StripeJson json;
    private final StripeViews views;
    private final SandboxEvents events;
    private final StripeInvoices invoices;
    private final Clock clock;
    private final RedirectUrls redirects;
    private final StripeDiscounts discounts;

    public Session retrieve(String id) {
        return objects.checkoutSession(id)
                .map(views::checkoutSession)
                .orElseThrow(() -> StripeError.noSuch("checkout.session", id, "session"));
    }

    @Transactional
    public Session create(StripeParams params) {
        params.allowOnly(
                Set.of(
                        "mode",
                        "customer",
                        "customer_email",
                        "client_reference_id",
                        "metadata",
                        "line_items",
                        "success_url",
                        "cancel_url",
                        "subscription_data",
                        "allow_promotion_codes",
                        "billing_address_collection",
                        "automatic_tax",
                        "discounts"),
                Set.of(
                        "payment_method_types",
                        "locale",
                        "customer_update",
                        "tax_id_collection",
                        "payment_method_collection",
                        "expires_at",
                        "ui_mode",
                        "consent_collection",
                        "custom_text",
                        "submit_type",
                        "phone_number_collection",
                        "saved_payment_method_options"));
        String mode = params.required("mode");
        if (!mode.equals("subscription")) {
            throw StripeError.invalid("mode", "The sandbox supports mode=subscription only.");
        }
        String successUrl = redirects.param(params, "success_url");
        if (successUrl == null) {
            throw StripeError.missing("success_url");
        }
        String cancelUrl = redirects.param(params, "cancel_url");
        String customer = params.text("customer");
        String customerEmail = params.email("customer_email");
        if (customer != null && customerEmail != null) {
            throw StripeError.onlyOneOf("customer_email", "customer", "customer_email");
        }
        if (customer != null && objects.customer(customer).isEmpty()) {
            throw StripeError.noSuchParam("customer", customer, "customer");
        }
        String clientReferenceId = params.text("client_reference_id");
        if (clientReferenceId != null && clientReferenceId.length() > 200) {
            throw StripeError.invalid("client_reference_id", "client_reference_id can have at most 200 characters.");
        }
        if (params.text("line_items[1][price]") != null) {
            throw StripeError.invalid("line_items", "The sandbox supports one line item per session.");
        }
        String priceId = params.text("line_items[0][price]");
        if (priceId == null) {
            throw StripeError.missing("line_items[0][price]");
        }
        StoredPrice price = objects.price(priceId)
                .orElseThrow(() -> StripeError.noSuchParam("price", priceId, "line_items[0][price]"));
        Long quantity = params.integer("line_items[0][quantity]");
        if (quantity == null) {
            quantity = 1L;
        }
        if (quantity < 1 || quantity > 999_999) {
            throw StripeError.invalid("line_items[0][quantity]", "Quantity must be between 1 and 999999.");
        }
        boolean allowPromotionCodes = Boolean.TRUE.equals(params.bool("allow_promotion_codes"));
        boolean discounted =
                params.text("discounts[0][coupon]") != null || params.text("discounts[0][promotion_code]") != null;
        if (allowPromotionCodes && discounted) {
            throw StripeError.onlyOneOf("allow_promotion_codes", "allow_promotion_codes", "discounts");
        }
        String addressCollection = params.text("billing_address_collection");
        if (addressCollection == null) {
            addressCollection = "auto";
        } else if (!addressCollection.equals("auto") && !addressCollection.equals("required")) {
            throw StripeError.invalid(
                    "billing_address_collection", "billing_address_collection must be auto or required.");
        }
        boolean automaticTax = Boolean.TRUE.equals(params.bool("automatic_tax[enabled]"));
        Long trialDays = params.integer("subscription_data[trial_period_days]");
        if (trialDays != null && (trialDays < 1 || trialDays > 730)) {
            throw StripeError.invalid(
                    "subscription_data[trial_period_days]", "The trial period must be between 1 and 730 days.");
        }
        long now = now();
        String id = StripeId.CHECKOUT_SESSION.next();
        discounts.forCheckoutSession(params, id);
        StoredCheckoutSession session = new StoredCheckoutSession(
                id,
                "open",
                "unpaid",
                mode,
                customer,
                customerEmail,
                clientReferenceId,
                StripeParams.merged(Map.of(), params.metadata("metadata")),
                price.id(),
                quantity,
                successUrl,
                cancelUrl,
                StripeParams.merged(Map.of(), params.metadata("subscription_data[metadata]")),
                null,
                now,
                now + CHECKOUT_SESSION_LIFETIME,
                null,
                allowPromotionCodes,
                addressCollection,
                automaticTax,
                trialDays);
        objects.insert(session);
        return views.checkoutSession(session);
    }

    /**
     * {@code POST /v1/checkout/sessions/{id}/expire}: an open session can no longer be paid, with
     * {@code checkout.session.expired}; any other session is refused with Stripe's message.
     */
    @Transactional
    public Session expire(String id) {
        StoredCheckoutSession session = objects.lockCheckoutSession(id)
                .orElseThrow(() -> StripeError.noSuch("checkout.session", id, "session"))
                .asOf(now());
        if (!session.status().equals("open")) {
            throw StripeError.state("Only Checkout Sessions with a status in [\"open\"] can be expired. This Checkout"
                    + " Session has a status of `" + session.status() + "`.");
        }
        StoredCheckoutSession expired = session.expired();
        objects.update(expired);
        Session view = views.checkoutSession(expired);
        events.emit("checkout.session.expired", view);
        return view;
    }

    /** The answer to paying a checkout session: the session as it is now, and whether the card was declined. */
    public record Payment(StoredCheckoutSession session, boolean declined) {}

    /**
     * What the customer enters on the hosted page besides the card.
     *
     * @param country the billing address's country (any case); needed when the session collects the address
     * @param promotionCode a code the customer typed, when the session allows promotion codes
     */
    public record PageInput(@Nullable String country, @Nullable String promotionCode) {

        public static final PageInput NONE = new PageInput(null, null);
    }

    /**
     * Pays a checkout session as Stripe's hosted page does: with a succeeding card, the customer (reused or
     * created, with the billing address's country), an active subscription with the session's discount (or the
     * typed code's) and automatic tax, its first invoice paid, and the events in Stripe's order; with a declining
     * card nothing changes. A complete session stays as it is. A country or code that cannot be used is refused
     * before anything changes.
     */
    @Transactional
    public Payment pay(String sessionId, CardOutcome card, PageInput input) {
        StoredCheckoutSession session = objects.lockCheckoutSession(sessionId)
                .orElseThrow(() -> StripeError.noSuch("checkout.session", sessionId, null));
        if (session.isComplete()) {
            return new Payment(session, false);
        }
        if (!session.asOf(now()).status().equals("open")) {
            throw StripeError.state("session_expired", "This Checkout Session is no longer active.");
        }
        String country = country(session, input.country());
        Optional<StoredDiscount> discount = discount(session, input.promotionCode());
        if (card == CardOutcome.CARD_DECLINED) {
            return new Payment(session, true);
        }
        long now = now();
        StoredCustomer customer;
        if (session.customer() != null) {
            customer = objects.lockCustomer(session.customer()).orElseThrow();
            StoredCustomer entered = customer.withCard(CardOutcome.SUCCEEDED)
                    .withCountry(country == null ? customer.country() : country);
            if (!entered.equals(customer)) {
                // the card entered on the page becomes the customer's card, the address its address
                customer = entered;
                objects.update(customer);
            }
        } else {
            customer = new StoredCustomer(
                    StripeId.CUSTOMER.next(),
                    session.customerEmail(),
                    null,
                    Map.of(),
                    CardOutcome.SUCCEEDED,
                    now,
                    country);
            objects.insert(customer);
            events.emit("customer.created", json.customer(customer));
        }
        StoredPrice price = objects.price(session.price()).orElseThrow();
        // with a trial, the first period is the trial and its invoice is $0 (the card is charged when it ends)
        Long trialDays = session.trialPeriodDays();
        Long trialEnd = trialDays == null ? null : now + trialDays * 86_400;
        long periodEnd = trialEnd != null ? trialEnd : StripeSubscriptions.periodEnd(now, price.interval(), now);
        String invoiceId = StripeId.INVOICE.next();
        StoredSubscription subscription = new StoredSubscription(
                StripeId.SUBSCRIPTION.next(),
                customer.id(),
                trialEnd == null ? "active" : "trialing",
                price.id(),
                session.quantity(),
                StripeId.SUBSCRIPTION_ITEM.next(),
                now,
                now,
                now,
                periodEnd,
                false,
                null,
                null,
                null,
                session.subscriptionMetadata(),
                invoiceId,
                now,
                trialEnd == null ? null : now,
                trialEnd);
        objects.insert(subscription);
        if (session.automaticTax()) {
            objects.enableAutomaticTax(subscription.id());
        }
        String customerId = customer.id();
        discount.ifPresent(d -> discounts.attach(d, customerId, subscription.id(), now));
        events.emit("customer.subscription.created", views.subscription(subscription));
        // a first invoice's period is the instant of creation, as at Stripe; its line covers the first period
        StoredInvoice first = StoredInvoice.draft(
                invoiceId, subscription, "subscription_create", price, now, now, now, periodEnd, now, null);
        invoices.issueNow(trialEnd == null ? first : first.ofTrial(), CardOutcome.SUCCEEDED);
        StoredCheckoutSession completed = session.completed(customer.id(), subscription.id(), now);
        objects.update(completed);
        events.emit("checkout.session.completed", views.checkoutSession(completed));
        return new Payment(completed, false);
    }

    /** The country entered on the page, checked; required when the session collects the billing address. */
    private static @Nullable String country(StoredCheckoutSession session, @Nullable String entered) {
        if (entered == null || entered.isBlank()) {
            if (session.needsCountry()) {
                throw StripeError.invalid(
                        "country",
                        "This checkout collects the billing address: enter its country as a two-letter ISO 3166-1"
                                + " code, such as DE, GB or US.");
            }
            return null;
        }
        return SandboxTaxRates.country(entered)
                .orElseThrow(() -> StripeError.invalid(
                        "country",
                        "Unknown country \"" + entered.strip() + "\": enter a two-letter ISO 3166-1 code, such as DE,"
                                + " GB or US."));
    }

    /** The session's own discount, or the one of a code typed on the page (checked, nothing made yet). */
    private Optional<StoredDiscount> discount(StoredCheckoutSession session, @Nullable String typed) {
        Optional<StoredDiscount> own = discounts.ofCheckoutSession(session.id());
        if (typed == null || typed.isBlank()) {
            return own;
        }
        if (!session.allowPromotionCodes() || own.isPresent()) {
            throw StripeError.invalid("promotion_code", "This checkout does not take a promotion code.");
        }
        return Optional.of(discounts.typed(typed, session.id()));
    }

    private long now() {
        return clock.instant().getEpochSecond();
    }
}
