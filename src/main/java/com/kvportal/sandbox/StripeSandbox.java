package com.kvportal.sandbox;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The sandbox's Stripe account: what Stripe does on each call, on the sandbox's tables, with the events Stripe
 * would send recorded in the same transaction. Locks are taken customer first, then its sessions, subscriptions and
 * invoices, so that concurrent calls cannot deadlock.
 */
@Service
@SandboxMode
class StripeSandbox {

    private static final long CHECKOUT_SESSION_LIFETIME = 24 * 3600;
    private static final Set<String> CUSTOMER_PARAMETERS = Set.of("email", "name", "metadata");
    private static final Set<String> IGNORED_CUSTOMER_PARAMETERS =
            Set.of("description", "phone", "address", "preferred_locales", "invoice_settings", "shipping");

    private final SandboxObjects objects;
    private final StripeJson json;
    private final SandboxEvents events;
    private final StripeInvoices invoices;
    private final SubscriptionNews news;
    private final Clock clock;

    StripeSandbox(
            SandboxObjects objects,
            StripeJson json,
            SandboxEvents events,
            StripeInvoices invoices,
            SubscriptionNews news,
            Clock clock) {
        this.objects = objects;
        this.json = json;
        this.events = events;
        this.invoices = invoices;
        this.news = news;
        this.clock = clock;
    }

    // customers

    @Transactional
    Map<String, Object> createCustomer(StripeParams params) {
        params.allowOnly(CUSTOMER_PARAMETERS, IGNORED_CUSTOMER_PARAMETERS);
        StoredCustomer customer = new StoredCustomer(
                StripeIds.customer(),
                params.email("email"),
                params.shortText("name"),
                StripeParams.merged(Map.of(), params.metadata("metadata")),
                CardOutcome.SUCCEEDED,
                now());
        objects.insert(customer);
        Map<String, Object> created = json.customer(customer);
        events.emit("customer.created", created);
        return created;
    }

    @Transactional
    Map<String, Object> updateCustomer(String id, StripeParams params) {
        params.allowOnly(CUSTOMER_PARAMETERS, IGNORED_CUSTOMER_PARAMETERS);
        StoredCustomer customer = objects.lockCustomer(id).orElseThrow(() -> StripeError.noSuch("customer", id, "id"));
        Map<String, Object> before = json.customer(customer);
        StoredCustomer updated = customer.withDetails(
                params.has("email") ? params.email("email") : customer.email(),
                params.has("name") ? params.shortText("name") : customer.name(),
                StripeParams.merged(customer.metadata(), params.metadata("metadata")));
        Map<String, Object> after = json.customer(updated);
        Map<String, Object> changes = SandboxEvents.changes(before, after);
        if (!changes.isEmpty()) {
            objects.update(updated);
            events.emit("customer.updated", after, changes);
        }
        return after;
    }

    // checkout

    @Transactional
    Map<String, Object> createCheckoutSession(StripeParams params) {
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
                        "subscription_data"),
                Set.of(
                        "payment_method_types",
                        "allow_promotion_codes",
                        "billing_address_collection",
                        "automatic_tax",
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
                        "saved_payment_method_options",
                        "discounts"));
        String mode = params.required("mode");
        if (!mode.equals("subscription")) {
            throw StripeError.invalid("mode", "The sandbox supports mode=subscription only.");
        }
        String successUrl = params.url("success_url");
        if (successUrl == null) {
            throw StripeError.missing("success_url");
        }
        String cancelUrl = params.url("cancel_url");
        String customer = params.text("customer");
        String customerEmail = params.email("customer_email");
        if (customer != null && customerEmail != null) {
            throw StripeError.invalid(
                    "customer_email", "You may only specify one of these parameters: customer, customer_email.");
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
        long now = now();
        StoredCheckoutSession session = new StoredCheckoutSession(
                StripeIds.checkoutSession(),
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
                null);
        objects.insert(session);
        return json.checkoutSession(session);
    }

    /** The answer to paying a checkout session: the session as it is now, and whether the card was declined. */
    record Payment(StoredCheckoutSession session, boolean declined) {}

    /**
     * Pays a checkout session as Stripe's hosted page does: with a succeeding card, the customer (reused or
     * created), an active subscription, its first invoice paid, and the events in Stripe's order; with a declining
     * card nothing changes. A complete session stays as it is.
     */
    @Transactional
    Payment pay(String sessionId, CardOutcome card) {
        StoredCheckoutSession session = objects.lockCheckoutSession(sessionId)
                .orElseThrow(() -> StripeError.noSuch("checkout.session", sessionId, null));
        if (session.isComplete()) {
            return new Payment(session, false);
        }
        if (!session.status().equals("open") || session.expiresAt() <= now()) {
            throw StripeError.state("session_expired", "This Checkout Session is no longer active.");
        }
        if (card == CardOutcome.CARD_DECLINED) {
            return new Payment(session, true);
        }
        long now = now();
        StoredCustomer customer;
        if (session.customer() != null) {
            customer = objects.lockCustomer(session.customer()).orElseThrow();
            if (customer.card() != CardOutcome.SUCCEEDED) {
                // the card entered on the page becomes the customer's card
                customer = customer.withCard(CardOutcome.SUCCEEDED);
                objects.update(customer);
            }
        } else {
            customer = new StoredCustomer(
                    StripeIds.customer(), session.customerEmail(), null, Map.of(), CardOutcome.SUCCEEDED, now);
            objects.insert(customer);
            events.emit("customer.created", json.customer(customer));
        }
        StoredPrice price = objects.price(session.price()).orElseThrow();
        long periodEnd = periodEnd(now, price.interval(), now);
        String invoiceId = StripeIds.invoice();
        StoredSubscription subscription = new StoredSubscription(
                StripeIds.subscription(),
                customer.id(),
                "active",
                price.id(),
                session.quantity(),
                StripeIds.subscriptionItem(),
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
                now);
        objects.insert(subscription);
        events.emit("customer.subscription.created", json.subscription(subscription));
        // a first invoice's period is the instant of creation, as at Stripe; its line covers the first period
        invoices.issueNow(
                StoredInvoice.draft(
                        invoiceId, subscription, "subscription_create", price, now, now, now, periodEnd, now, null),
                CardOutcome.SUCCEEDED);
        StoredCheckoutSession completed = session.completed(customer.id(), subscription.id(), now);
        objects.update(completed);
        events.emit("checkout.session.completed", json.checkoutSession(completed));
        return new Payment(completed, false);
    }

    // subscriptions

    @Transactional
    Map<String, Object> updateSubscription(String id, StripeParams params) {
        params.allowOnly(
                Set.of("cancel_at_period_end", "cancel_at", "metadata"),
                Set.of("proration_behavior", "description", "cancellation_details"));
        StoredSubscription subscription =
                objects.lockSubscription(id).orElseThrow(() -> StripeError.noSuch("subscription", id, "id"));
        Boolean cancelAtPeriodEnd = params.bool("cancel_at_period_end");
        boolean cancelAtGiven = params.has("cancel_at");
        Long cancelAt = params.integer("cancel_at");
        if (Boolean.TRUE.equals(cancelAtPeriodEnd) && cancelAt != null) {
            throw StripeError.invalid(
                    "cancel_at", "You may only specify one of these parameters: cancel_at, cancel_at_period_end.");
        }
        if (subscription.hasEnded() && (cancelAtPeriodEnd != null || cancelAtGiven)) {
            throw StripeError.state(
                    "subscription_ended",
                    "A canceled subscription can only update its cancellation_details and metadata.");
        }
        long now = now();
        Long canceledAt = subscription.canceledAt() != null ? subscription.canceledAt() : Long.valueOf(now);
        StoredSubscription updated = subscription;
        if (Boolean.TRUE.equals(cancelAtPeriodEnd)) {
            // at the current API version, a cancellation at period end also shows as cancel_at
            updated = updated.withCancellation(true, subscription.currentPeriodEnd(), canceledAt);
        } else if (Boolean.FALSE.equals(cancelAtPeriodEnd) && !cancelAtGiven) {
            updated = updated.withCancellation(false, null, null);
        }
        if (cancelAtGiven) {
            if (cancelAt == null) {
                updated = updated.withCancellation(false, null, null);
            } else if (cancelAt <= now) {
                throw StripeError.invalid("cancel_at", "cancel_at must be in the future.");
            } else {
                updated = updated.withCancellation(false, cancelAt, canceledAt);
            }
        }
        updated = updated.withMetadata(StripeParams.merged(subscription.metadata(), params.metadata("metadata")));
        return news.saveAndAnnounce(subscription, updated);
    }

    /** {@code DELETE /v1/subscriptions/{id}}: ends the subscription now. */
    @Transactional
    Map<String, Object> cancelSubscription(String id) {
        StoredSubscription subscription =
                objects.lockSubscription(id).orElseThrow(() -> StripeError.noSuch("subscription", id, "id"));
        if (subscription.hasEnded()) {
            throw StripeError.state("subscription_ended", "This subscription has already been canceled.");
        }
        long now = now();
        return news.endAndAnnounce(subscription.ended(now, now));
    }

    /**
     * Moves the subscription to the end of its current period, as a Stripe test clock would: drafts left from
     * earlier renewals are finalized and charged first (their grace has passed); then it ends when set to cancel by
     * then, or renews: a new period, and the renewal drafted with {@code invoice.created}, to be finalized and
     * charged once that event is answered (or after the grace).
     */
    @Transactional
    Map<String, Object> advance(String id) {
        String customerId = objects.subscription(id)
                .orElseThrow(() -> StripeError.noSuch("subscription", id, "id"))
                .customer();
        StoredCustomer customer = objects.lockCustomer(customerId).orElseThrow();
        if (objects.lockSubscription(id).orElseThrow().hasEnded()) {
            throw StripeError.state("subscription_ended", "This subscription has ended; there is nothing to advance.");
        }
        invoices.finalizeDrafts(customer);
        StoredSubscription subscription = objects.lockSubscription(id).orElseThrow();
        long now = now();
        if (subscription.endsWithCurrentPeriod()) {
            Long cancelAt = subscription.cancelAt();
            long endedAt = cancelAt == null
                    ? subscription.currentPeriodEnd()
                    : Math.min(cancelAt, subscription.currentPeriodEnd());
            return news.endAndAnnounce(
                    subscription.ended(endedAt, subscription.canceledAt() == null ? now : subscription.canceledAt()));
        }
        StoredPrice price = objects.price(subscription.price()).orElseThrow();
        long start = subscription.currentPeriodEnd();
        long end = periodEnd(subscription.billingCycleAnchor(), price.interval(), start);
        StoredInvoice draft = invoices.draftRenewal(subscription, price, start, end);
        return news.saveAndAnnounce(subscription, subscription.renewed(start, end, draft.id(), subscription.status()));
    }

    // cards

    /**
     * Sets the card the customer's next charges meet; a succeeding card also pays the open invoices at once and
     * brings past-due subscriptions back to active.
     */
    @Transactional
    Map<String, Object> useCard(String customerId, CardOutcome card) {
        StoredCustomer customer = objects.lockCustomer(customerId)
                .orElseThrow(() -> StripeError.noSuch("customer", customerId, "customer"));
        objects.update(customer.withCard(card));
        List<String> paid = new ArrayList<>();
        List<String> reactivated = new ArrayList<>();
        if (card == CardOutcome.SUCCEEDED) {
            for (StoredInvoice invoice : objects.lockOpenInvoices(customerId)) {
                paid.add(invoices.markPaid(invoice).id());
            }
            for (StoredSubscription subscription : objects.lockPastDueSubscriptions(customerId)) {
                news.saveAndAnnounce(subscription, subscription.withStatus("active"));
                reactivated.add(subscription.id());
            }
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("object", "sandbox.card");
        answer.put("customer", customerId);
        answer.put("outcome", card.value());
        answer.put("paid_invoices", paid);
        answer.put("reactivated_subscriptions", reactivated);
        return answer;
    }

    // portal

    @Transactional
    Map<String, Object> createPortalSession(StripeParams params) {
        params.allowOnly(Set.of("customer", "return_url"), Set.of("configuration", "locale", "on_behalf_of"));
        String customer = params.required("customer");
        if (objects.customer(customer).isEmpty()) {
            throw StripeError.noSuchParam("customer", customer, "customer");
        }
        StoredPortalSession session =
                new StoredPortalSession(StripeIds.portalSession(), customer, params.url("return_url"), now());
        objects.insert(session);
        return json.portalSession(session);
    }

    // shared steps

    /** The end of the billing period that contains {@code at}: the first anchor + n intervals after it. */
    static long periodEnd(long anchor, String interval, long at) {
        ZonedDateTime start = Instant.ofEpochSecond(anchor).atZone(ZoneOffset.UTC);
        for (int n = 1; ; n++) {
            ZonedDateTime end =
                    switch (interval) {
                        case "day" -> start.plusDays(n);
                        case "week" -> start.plusWeeks(n);
                        case "year" -> start.plusYears(n);
                        default -> start.plusMonths(n);
                    };
            if (end.toEpochSecond() > at) {
                return end.toEpochSecond();
            }
        }
    }

    private long now() {
        return clock.instant().getEpochSecond();
    }
}
