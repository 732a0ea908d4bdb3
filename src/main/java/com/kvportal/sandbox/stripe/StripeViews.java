package com.kvportal.sandbox.stripe;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.kvportal.sandbox.store.SandboxDiscounts;
import com.kvportal.sandbox.store.SandboxObjects;
import com.kvportal.sandbox.store.SandboxSchedules;
import com.kvportal.sandbox.store.StoredCheckoutSession;
import com.kvportal.sandbox.store.StoredCustomer;
import com.kvportal.sandbox.store.StoredDiscount;
import com.kvportal.sandbox.store.StoredInvoice;
import com.kvportal.sandbox.store.StoredPrice;
import com.kvportal.sandbox.store.StoredSchedule;
import com.kvportal.sandbox.store.StoredSubscription;
import com.stripe.model.Customer;
import com.stripe.model.Invoice;
import com.stripe.model.StripeObject;
import com.stripe.model.Subscription;
import com.stripe.model.SubscriptionSchedule;
import com.stripe.model.checkout.Session;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import lombok.RequiredArgsConstructor;
import org.springframework.stereotype.Component;

/**
 * Loads what a Stripe object shows besides its own row (an invoice's price, customer, subscription and items), then
 * has {@link StripeJson} render it; and expands ids into objects on request, as Stripe's {@code expand} does.
 */
@Component
@RequiredArgsConstructor
public class StripeViews {

    /** Expansions deeper than this are refused, as Stripe refuses more than four levels. */
    private static final int MAX_EXPAND_DEPTH = 4;

    private final SandboxObjects objects;
    private final SandboxSchedules schedules;
    private final SandboxDiscounts discounts;
    private final StripeJson json;
    private final Clock clock;

    Customer customer(StoredCustomer customer) {
        return json.customer(customer);
    }

    /** A checkout session as it reads now: past its expiry, an open one reads as expired. */
    public Session checkoutSession(StoredCheckoutSession stored) {
        StoredCheckoutSession session = stored.asOf(clock.instant().getEpochSecond());
        StoredCustomer customer = session.isComplete() && session.customer() != null
                ? objects.customer(session.customer()).orElse(null)
                : null;
        Session view = json.checkoutSession(session, priceOf(session.price()), customer);
        discounts.ofCheckoutSession(session.id()).ifPresent(discount -> {
            Session.Discount applied = new Session.Discount();
            applied.setCoupon(discount.coupon());
            applied.setPromotionCode(discount.promotionCode());
            view.setDiscounts(List.of(applied));
        });
        return view;
    }

    /**
     * A subscription, naming the schedule that governs it (if any) in its {@code schedule}, with its discounts that
     * apply now and whether its tax is automatic.
     */
    public Subscription subscription(StoredSubscription subscription) {
        Subscription view = json.subscription(subscription, priceOf(subscription.price()));
        view.setSchedule(
                schedules.governing(subscription.id()).map(StoredSchedule::id).orElse(null));
        view.setDiscounts(discounts.ofSubscription(subscription.id(), subscription.now(now())).stream()
                .map(StoredDiscount::id)
                .toList());
        view.getAutomaticTax().setEnabled(objects.automaticTax(subscription.id()));
        return view;
    }

    /** A schedule, its current phase read by its subscription's clock. */
    public SubscriptionSchedule schedule(StoredSchedule schedule) {
        long now = now();
        String subscription =
                schedule.subscription() != null ? schedule.subscription() : schedule.releasedSubscription();
        if (subscription != null) {
            now = objects.subscription(subscription).map(s -> s.now(now())).orElse(now);
        }
        return json.schedule(schedule, now);
    }

    private long now() {
        return clock.instant().getEpochSecond();
    }

    public Invoice invoice(StoredInvoice invoice) {
        return json.invoice(new StripeJson.InvoiceView(
                invoice,
                invoice.price() == null ? null : priceOf(invoice.price()),
                objects.customer(invoice.customer()).orElse(null),
                invoice.subscription() == null
                        ? null
                        : objects.subscription(invoice.subscription()).orElse(null),
                objects.invoiceItems(invoice.id())));
    }

    /** The object with this id, by its Stripe prefix (what comes before the first {@code _}, with it). */
    Optional<StripeObject> byId(String id) {
        if (id.startsWith("sub_sched_")) {
            return schedules.schedule(id).<StripeObject>map(this::schedule);
        }
        return switch (id.substring(0, id.indexOf('_') + 1)) {
            case "cus_" -> objects.customer(id).map(this::customer);
            case "sub_" -> objects.subscription(id).map(this::subscription);
            case "in_" -> objects.invoice(id).map(this::invoice);
            case "ii_" -> objects.invoiceItem(id).map(json::invoiceItem);
            case "cs_" -> objects.checkoutSession(id).map(this::checkoutSession);
            case "price_" -> objects.price(id).map(json::price);
            case "promo_" -> discounts.promotionCode(id).map(StripeDiscountJson::promotionCode);
            case "di_" -> discounts.discount(id).map(StripeDiscountJson::discount);
            // a coupon's id is its own (no prefix of a kind)
            default -> discounts.coupon(id).map(coupon -> StripeDiscountJson.coupon(coupon, now()));
        };
    }

    /**
     * The object as JSON with the ids along each {@code expand} path ({@code subscription},
     * {@code subscription.latest_invoice}, {@code data.customer} in lists) replaced by their objects.
     */
    public JsonObject expanded(StripeObject object, List<String> paths) {
        JsonObject tree = StripeJson.tree(object);
        for (String path : paths) {
            String[] parts = path.split("\\.");
            if (parts.length > MAX_EXPAND_DEPTH) {
                throw StripeError.invalid("expand", "You cannot expand more than 4 levels of a property.");
            }
            expand(tree, Arrays.asList(parts), path);
        }
        return tree;
    }

    private void expand(JsonElement node, List<String> parts, String path) {
        if (parts.isEmpty() || !node.isJsonObject()) {
            return;
        }
        JsonObject object = node.getAsJsonObject();
        String field = parts.get(0);
        List<String> rest = parts.subList(1, parts.size());
        JsonElement kind = object.get("object");
        if (field.equals("data")
                && kind != null
                && kind.isJsonPrimitive()
                && kind.getAsString().equals("list")
                && object.get("data") != null
                && object.get("data").isJsonArray()) {
            for (JsonElement item :
                    new ArrayList<>(object.getAsJsonArray("data").asList())) {
                expand(item, rest, path);
            }
            return;
        }
        if (!object.has(field)) {
            throw cannotExpand(path);
        }
        JsonElement value = object.get(field);
        if (value.isJsonPrimitive() && value.getAsJsonPrimitive().isString()) {
            JsonObject expanded = StripeJson.tree(byId(value.getAsString()).orElseThrow(() -> cannotExpand(path)));
            object.add(field, expanded);
            expand(expanded, rest, path);
        } else if (value.isJsonObject()) {
            expand(value, rest, path);
        } else if (!value.isJsonNull()) {
            throw cannotExpand(path);
        }
    }

    private static StripeError cannotExpand(String path) {
        return StripeError.invalid("expand", "This property cannot be expanded (" + path + ").");
    }

    private StoredPrice priceOf(String id) {
        return objects.price(id).orElseThrow(() -> new IllegalStateException("price " + id + " vanished"));
    }
}
