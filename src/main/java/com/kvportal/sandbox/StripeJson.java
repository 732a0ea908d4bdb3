package com.kvportal.sandbox;

import com.kvportal.common.AppBaseUrl;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * Renders the sandbox's objects in Stripe's JSON shapes at the API version of the bundled stripe-java (snake_case,
 * an {@code object} field, unix seconds, {@code livemode: false}), and expands ids into objects on request.
 */
@Component
@SandboxMode
class StripeJson {

    /** Expansions deeper than this are refused, as Stripe refuses more than four levels. */
    private static final int MAX_EXPAND_DEPTH = 4;

    private final SandboxObjects objects;
    private final AppBaseUrl baseUrl;

    StripeJson(SandboxObjects objects, AppBaseUrl baseUrl) {
        this.objects = objects;
        this.baseUrl = baseUrl;
    }

    Map<String, Object> customer(StoredCustomer c) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", c.id());
        json.put("object", "customer");
        json.put("address", null);
        json.put("balance", 0);
        json.put("created", c.created());
        json.put("currency", "usd");
        json.put("default_source", null);
        json.put("delinquent", false);
        json.put("description", null);
        json.put("discount", null);
        json.put("email", c.email());
        json.put("invoice_prefix", SandboxObjects.invoicePrefix(c.id()));
        Map<String, Object> invoiceSettings = new LinkedHashMap<>();
        invoiceSettings.put("custom_fields", null);
        invoiceSettings.put("default_payment_method", null);
        invoiceSettings.put("footer", null);
        invoiceSettings.put("rendering_options", null);
        json.put("invoice_settings", invoiceSettings);
        json.put("livemode", false);
        json.put("metadata", c.metadata());
        json.put("name", c.name());
        json.put("next_invoice_sequence", 1);
        json.put("phone", null);
        json.put("preferred_locales", List.of());
        json.put("shipping", null);
        json.put("tax_exempt", "none");
        json.put("test_clock", null);
        return json;
    }

    Map<String, Object> price(StoredPrice p) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", p.id());
        json.put("object", "price");
        json.put("active", true);
        json.put("billing_scheme", "per_unit");
        json.put("created", p.created());
        json.put("currency", p.currency());
        json.put("custom_unit_amount", null);
        json.put("livemode", false);
        json.put("lookup_key", null);
        json.put("metadata", Map.of());
        json.put("nickname", p.nickname());
        json.put("product", p.product());
        Map<String, Object> recurring = new LinkedHashMap<>();
        recurring.put("interval", p.interval());
        recurring.put("interval_count", 1);
        recurring.put("meter", null);
        recurring.put("trial_period_days", null);
        recurring.put("usage_type", "licensed");
        json.put("recurring", recurring);
        json.put("tax_behavior", "unspecified");
        json.put("tiers_mode", null);
        json.put("transform_quantity", null);
        json.put("type", "recurring");
        json.put("unit_amount", p.unitAmount());
        json.put("unit_amount_decimal", Long.toString(p.unitAmount()));
        return json;
    }

    /** The legacy plan view of a price, which subscription items still carry. */
    private Map<String, Object> plan(StoredPrice p) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", p.id());
        json.put("object", "plan");
        json.put("active", true);
        json.put("amount", p.unitAmount());
        json.put("amount_decimal", Long.toString(p.unitAmount()));
        json.put("billing_scheme", "per_unit");
        json.put("created", p.created());
        json.put("currency", p.currency());
        json.put("interval", p.interval());
        json.put("interval_count", 1);
        json.put("livemode", false);
        json.put("metadata", Map.of());
        json.put("meter", null);
        json.put("nickname", p.nickname());
        json.put("product", p.product());
        json.put("tiers_mode", null);
        json.put("transform_usage", null);
        json.put("trial_period_days", null);
        json.put("usage_type", "licensed");
        return json;
    }

    Map<String, Object> checkoutSession(StoredCheckoutSession s) {
        StoredPrice price = priceOf(s.price());
        long amount = price.unitAmount() * s.quantity();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", s.id());
        json.put("object", "checkout.session");
        json.put("after_expiration", null);
        json.put("allow_promotion_codes", null);
        json.put("amount_subtotal", amount);
        json.put("amount_total", amount);
        json.put("automatic_tax", Map.of("enabled", false));
        json.put("billing_address_collection", null);
        json.put("cancel_url", s.cancelUrl());
        json.put("client_reference_id", s.clientReferenceId());
        json.put("client_secret", null);
        json.put("created", s.created());
        json.put("currency", price.currency());
        json.put("custom_fields", List.of());
        json.put("customer", s.customer());
        json.put("customer_creation", null);
        if (s.isComplete() && s.customer() != null) {
            StoredCustomer customer = objects.customer(s.customer()).orElse(null);
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("address", null);
            details.put("email", customer == null ? s.customerEmail() : customer.email());
            details.put("name", customer == null ? null : customer.name());
            details.put("phone", null);
            details.put("tax_exempt", "none");
            details.put("tax_ids", List.of());
            json.put("customer_details", details);
        } else {
            json.put("customer_details", null);
        }
        json.put("customer_email", s.customerEmail());
        json.put("expires_at", s.expiresAt());
        json.put("invoice", null);
        json.put("livemode", false);
        json.put("locale", null);
        json.put("metadata", s.metadata());
        json.put("mode", s.mode());
        json.put("payment_intent", null);
        json.put("payment_link", null);
        json.put("payment_method_collection", "always");
        json.put("payment_method_types", List.of("card"));
        json.put("payment_status", s.paymentStatus());
        json.put("status", s.status());
        json.put("submit_type", null);
        json.put("subscription", s.subscription());
        json.put("success_url", s.successUrl());
        Map<String, Object> totals = new LinkedHashMap<>();
        totals.put("amount_discount", 0);
        totals.put("amount_shipping", 0);
        totals.put("amount_tax", 0);
        json.put("total_details", totals);
        json.put("ui_mode", "hosted");
        // Stripe shows the URL only while the session can still be paid
        json.put("url", s.status().equals("open") ? checkoutUrl(s.id()) : null);
        return json;
    }

    private String checkoutUrl(String sessionId) {
        return baseUrl.resolve("/sandbox/checkout/" + sessionId);
    }

    Map<String, Object> subscription(StoredSubscription s) {
        StoredPrice price = priceOf(s.price());
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("id", s.itemId());
        item.put("object", "subscription_item");
        item.put("billing_thresholds", null);
        item.put("created", s.itemCreated());
        item.put("current_period_end", s.currentPeriodEnd());
        item.put("current_period_start", s.currentPeriodStart());
        item.put("discounts", List.of());
        item.put("metadata", Map.of());
        item.put("plan", plan(price));
        item.put("price", price(price));
        item.put("quantity", s.quantity());
        item.put("subscription", s.id());
        item.put("tax_rates", List.of());

        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", s.id());
        json.put("object", "subscription");
        json.put("application", null);
        json.put("application_fee_percent", null);
        Map<String, Object> automaticTax = new LinkedHashMap<>();
        automaticTax.put("disabled_reason", null);
        automaticTax.put("enabled", false);
        automaticTax.put("liability", null);
        json.put("automatic_tax", automaticTax);
        json.put("billing_cycle_anchor", s.billingCycleAnchor());
        json.put("billing_cycle_anchor_config", null);
        json.put("billing_mode", Map.of("type", "classic"));
        json.put("billing_thresholds", null);
        json.put("cancel_at", s.cancelAt());
        json.put("cancel_at_period_end", s.cancelAtPeriodEnd());
        json.put("canceled_at", s.canceledAt());
        Map<String, Object> cancellation = new LinkedHashMap<>();
        cancellation.put("comment", null);
        cancellation.put("feedback", null);
        cancellation.put("reason", s.canceledAt() == null ? null : "cancellation_requested");
        json.put("cancellation_details", cancellation);
        json.put("collection_method", "charge_automatically");
        json.put("created", s.created());
        json.put("currency", price.currency());
        json.put("customer", s.customer());
        json.put("days_until_due", null);
        json.put("default_payment_method", null);
        json.put("default_source", null);
        json.put("default_tax_rates", List.of());
        json.put("description", null);
        json.put("discounts", List.of());
        json.put("ended_at", s.endedAt());
        Map<String, Object> invoiceSettings = new LinkedHashMap<>();
        invoiceSettings.put("account_tax_ids", null);
        invoiceSettings.put("issuer", Map.of("type", "self"));
        json.put("invoice_settings", invoiceSettings);
        json.put("items", list(List.of(item), "/v1/subscription_items?subscription=" + s.id(), false));
        json.put("latest_invoice", s.latestInvoice());
        json.put("livemode", false);
        json.put("metadata", s.metadata());
        json.put("next_pending_invoice_item_invoice", null);
        json.put("on_behalf_of", null);
        json.put("pause_collection", null);
        json.put("payment_settings", null);
        json.put("pending_invoice_item_interval", null);
        json.put("pending_setup_intent", null);
        json.put("pending_update", null);
        json.put("schedule", null);
        json.put("start_date", s.created());
        json.put("status", s.status());
        json.put("test_clock", null);
        json.put("transfer_data", null);
        json.put("trial_end", null);
        json.put("trial_settings", Map.of("end_behavior", Map.of("missing_payment_method", "create_invoice")));
        json.put("trial_start", null);
        return json;
    }

    Map<String, Object> invoice(StoredInvoice i) {
        StoredPrice price = i.price() == null ? null : priceOf(i.price());
        StoredCustomer customer = objects.customer(i.customer()).orElse(null);
        StoredSubscription subscription = i.subscription() == null
                ? null
                : objects.subscription(i.subscription()).orElse(null);
        List<StoredInvoiceItem> items = objects.invoiceItems(i.id());
        boolean draft = i.status().equals("draft");
        String currency = price != null
                ? price.currency()
                : items.isEmpty() ? "usd" : items.get(0).currency();

        List<Map<String, Object>> lines = new ArrayList<>();
        if (i.hasSubscriptionLine() && price != null) {
            lines.add(subscriptionLine(i, price, subscription));
        }
        for (StoredInvoiceItem item : items) {
            lines.add(itemLine(item));
        }

        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", i.id());
        json.put("object", "invoice");
        json.put("account_country", "US");
        json.put("account_name", "kv-portal sandbox");
        json.put("account_tax_ids", null);
        json.put("amount_due", i.amountDue());
        json.put("amount_overpaid", 0);
        json.put("amount_paid", i.amountPaid());
        json.put("amount_remaining", i.amountDue() - i.amountPaid());
        json.put("amount_shipping", 0);
        json.put("application", null);
        json.put("attempt_count", i.attemptCount());
        json.put("attempted", i.attemptCount() > 0);
        json.put("auto_advance", i.autoAdvance());
        Map<String, Object> automaticTax = new LinkedHashMap<>();
        automaticTax.put("disabled_reason", null);
        automaticTax.put("enabled", false);
        automaticTax.put("liability", null);
        automaticTax.put("provider", null);
        automaticTax.put("status", null);
        json.put("automatic_tax", automaticTax);
        json.put("automatically_finalizes_at", draft ? i.finalizesAt() : null);
        json.put("billing_reason", i.billingReason());
        json.put("collection_method", "charge_automatically");
        json.put("created", i.created());
        json.put("currency", currency);
        json.put("custom_fields", null);
        json.put("customer", i.customer());
        json.put("customer_address", null);
        json.put("customer_email", customer == null ? null : customer.email());
        json.put("customer_name", customer == null ? null : customer.name());
        json.put("customer_phone", null);
        json.put("customer_shipping", null);
        json.put("customer_tax_exempt", "none");
        json.put("customer_tax_ids", List.of());
        json.put("default_payment_method", null);
        json.put("default_source", null);
        json.put("default_tax_rates", List.of());
        json.put("description", null);
        json.put("discounts", List.of());
        json.put("due_date", null);
        json.put("effective_at", i.finalizedAt());
        json.put("ending_balance", draft ? null : 0);
        json.put("footer", null);
        json.put("from_invoice", null);
        json.put("hosted_invoice_url", draft ? null : invoiceUrl(i.id()));
        json.put("invoice_pdf", null);
        json.put("issuer", Map.of("type", "self"));
        json.put("last_finalization_error", null);
        json.put("latest_revision", null);
        json.put("lines", list(lines, "/v1/invoices/" + i.id() + "/lines", false));
        json.put("livemode", false);
        json.put("metadata", Map.of());
        json.put("next_payment_attempt", null);
        json.put("number", i.number());
        json.put("on_behalf_of", null);
        if (i.subscription() == null) {
            json.put("parent", null);
        } else {
            Map<String, Object> subscriptionDetails = new LinkedHashMap<>();
            subscriptionDetails.put("metadata", subscription == null ? Map.of() : subscription.metadata());
            subscriptionDetails.put("subscription", i.subscription());
            Map<String, Object> parent = new LinkedHashMap<>();
            parent.put("quote_details", null);
            parent.put("subscription_details", subscriptionDetails);
            parent.put("type", "subscription_details");
            json.put("parent", parent);
        }
        Map<String, Object> paymentSettings = new LinkedHashMap<>();
        paymentSettings.put("default_mandate", null);
        paymentSettings.put("payment_method_options", null);
        paymentSettings.put("payment_method_types", null);
        json.put("payment_settings", paymentSettings);
        json.put("period_end", i.periodEnd());
        json.put("period_start", i.periodStart());
        json.put("post_payment_credit_notes_amount", 0);
        json.put("pre_payment_credit_notes_amount", 0);
        json.put("receipt_number", null);
        json.put("rendering", null);
        json.put("shipping_cost", null);
        json.put("shipping_details", null);
        json.put("starting_balance", 0);
        json.put("statement_descriptor", null);
        json.put("status", i.status());
        Map<String, Object> transitions = new LinkedHashMap<>();
        transitions.put("finalized_at", i.finalizedAt());
        transitions.put("marked_uncollectible_at", null);
        transitions.put("paid_at", i.paidAt());
        transitions.put("voided_at", null);
        json.put("status_transitions", transitions);
        json.put("subtotal", i.amountDue());
        json.put("subtotal_excluding_tax", i.amountDue());
        json.put("test_clock", null);
        json.put("threshold_reason", null);
        json.put("total", i.amountDue());
        json.put("total_discount_amounts", List.of());
        json.put("total_excluding_tax", i.amountDue());
        json.put("total_pretax_credit_amounts", List.of());
        json.put("total_taxes", List.of());
        json.put("webhooks_delivered_at", null);
        return json;
    }

    /** The line of the subscription's price: it covers the service period of the invoice's line. */
    private Map<String, Object> subscriptionLine(
            StoredInvoice i, StoredPrice price, @Nullable StoredSubscription subscription) {
        long amount = price.unitAmount() * i.quantity();
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("id", i.lineId());
        line.put("object", "line_item");
        line.put("amount", amount);
        line.put("currency", price.currency());
        line.put(
                "description",
                i.quantity() + " × " + price.nickname() + " (at " + money(price.unitAmount()) + " / " + price.interval()
                        + ")");
        line.put("discount_amounts", List.of());
        line.put("discountable", true);
        line.put("discounts", List.of());
        line.put("invoice", i.id());
        line.put("livemode", false);
        line.put("metadata", Map.of());
        Map<String, Object> itemDetails = new LinkedHashMap<>();
        itemDetails.put("invoice_item", null);
        itemDetails.put("proration", false);
        itemDetails.put("proration_details", nullValued("credited_items"));
        itemDetails.put("subscription", i.subscription());
        itemDetails.put("subscription_item", subscription == null ? null : subscription.itemId());
        Map<String, Object> lineParent = new LinkedHashMap<>();
        lineParent.put("invoice_item_details", null);
        lineParent.put("subscription_item_details", itemDetails);
        lineParent.put("type", "subscription_item_details");
        line.put("parent", lineParent);
        line.put("period", Map.of("end", i.linePeriodEnd(), "start", i.linePeriodStart()));
        line.put("pretax_credit_amounts", List.of());
        Map<String, Object> pricing = new LinkedHashMap<>();
        pricing.put("price_details", Map.of("price", price.id(), "product", price.product()));
        pricing.put("type", "price_details");
        pricing.put("unit_amount_decimal", Long.toString(price.unitAmount()));
        line.put("pricing", pricing);
        line.put("quantity", i.quantity());
        line.put("subtotal", amount);
        line.put("taxes", List.of());
        return line;
    }

    /** The line an invoice item makes on its invoice. */
    private static Map<String, Object> itemLine(StoredInvoiceItem item) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("id", item.lineId());
        line.put("object", "line_item");
        line.put("amount", item.amount());
        line.put("currency", item.currency());
        line.put("description", item.description());
        line.put("discount_amounts", List.of());
        line.put("discountable", true);
        line.put("discounts", List.of());
        line.put("invoice", item.invoice());
        line.put("livemode", false);
        line.put("metadata", item.metadata());
        Map<String, Object> itemDetails = new LinkedHashMap<>();
        itemDetails.put("invoice_item", item.id());
        itemDetails.put("proration", false);
        itemDetails.put("proration_details", nullValued("credited_items"));
        itemDetails.put("subscription", null);
        Map<String, Object> lineParent = new LinkedHashMap<>();
        lineParent.put("invoice_item_details", itemDetails);
        lineParent.put("subscription_item_details", null);
        lineParent.put("type", "invoice_item_details");
        line.put("parent", lineParent);
        line.put("period", Map.of("end", item.periodEnd(), "start", item.periodStart()));
        line.put("pretax_credit_amounts", List.of());
        line.put("pricing", itemPricing(item));
        line.put("quantity", item.quantity());
        line.put("subtotal", item.amount());
        line.put("taxes", List.of());
        return line;
    }

    Map<String, Object> invoiceItem(StoredInvoiceItem item) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", item.id());
        json.put("object", "invoiceitem");
        json.put("amount", item.amount());
        json.put("currency", item.currency());
        json.put("customer", item.customer());
        json.put("date", item.created());
        json.put("description", item.description());
        json.put("discountable", true);
        json.put("discounts", List.of());
        json.put("invoice", item.invoice());
        json.put("livemode", false);
        json.put("metadata", item.metadata());
        json.put("net_amount", item.amount());
        json.put("parent", null);
        json.put("period", Map.of("end", item.periodEnd(), "start", item.periodStart()));
        json.put("pricing", itemPricing(item));
        json.put("proration", false);
        json.put("quantity", item.quantity());
        json.put("tax_rates", List.of());
        json.put("test_clock", null);
        return json;
    }

    private static Map<String, Object> itemPricing(StoredInvoiceItem item) {
        Map<String, Object> pricing = new LinkedHashMap<>();
        pricing.put("price_details", null);
        pricing.put("type", null);
        pricing.put(
                "unit_amount_decimal",
                item.unitAmountDecimal().stripTrailingZeros().toPlainString());
        return pricing;
    }

    private String invoiceUrl(String invoiceId) {
        return baseUrl.resolve("/sandbox/invoices/" + invoiceId);
    }

    Map<String, Object> portalSession(StoredPortalSession p) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", p.id());
        json.put("object", "billing_portal.session");
        json.put("configuration", "bpc_sandbox");
        json.put("created", p.created());
        json.put("customer", p.customer());
        json.put("flow", null);
        json.put("livemode", false);
        json.put("locale", null);
        json.put("on_behalf_of", null);
        json.put("return_url", p.returnUrl());
        json.put("url", baseUrl.resolve("/sandbox/portal/" + p.id()));
        return json;
    }

    static Map<String, Object> list(List<?> data, String url, boolean hasMore) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("object", "list");
        json.put("data", data);
        json.put("has_more", hasMore);
        json.put("total_count", data.size());
        json.put("url", url);
        return json;
    }

    /** The object with this id, in its JSON shape, by its Stripe prefix. */
    Optional<Map<String, Object>> byId(String id) {
        if (id.startsWith("cus_")) {
            return objects.customer(id).map(this::customer);
        }
        if (id.startsWith("sub_")) {
            return objects.subscription(id).map(this::subscription);
        }
        if (id.startsWith("in_")) {
            return objects.invoice(id).map(this::invoice);
        }
        if (id.startsWith("cs_")) {
            return objects.checkoutSession(id).map(this::checkoutSession);
        }
        if (id.startsWith("ii_")) {
            return objects.invoiceItem(id).map(this::invoiceItem);
        }
        if (id.startsWith("price_")) {
            return objects.price(id).map(this::price);
        }
        return Optional.empty();
    }

    /**
     * Replaces ids by their objects along each {@code expand} path ({@code subscription},
     * {@code subscription.latest_invoice}, {@code data.customer} in lists), as Stripe does.
     */
    Map<String, Object> expand(Map<String, Object> json, List<String> paths) {
        for (String path : paths) {
            String[] parts = path.split("\\.");
            if (parts.length > MAX_EXPAND_DEPTH) {
                throw StripeError.invalid("expand", "You cannot expand more than 4 levels of a property.");
            }
            expand(json, Arrays.asList(parts), path);
        }
        return json;
    }

    @SuppressWarnings("unchecked")
    private void expand(Object node, List<String> parts, String path) {
        if (parts.isEmpty() || !(node instanceof Map)) {
            return;
        }
        Map<String, Object> map = (Map<String, Object>) node;
        String field = parts.get(0);
        List<String> rest = parts.subList(1, parts.size());
        if (field.equals("data") && "list".equals(map.get("object")) && map.get("data") instanceof List<?> items) {
            for (Object item : new ArrayList<>(items)) {
                expand(item, rest, path);
            }
            return;
        }
        if (!map.containsKey(field)) {
            throw StripeError.invalid("expand", "This property cannot be expanded (" + path + ").");
        }
        Object value = map.get(field);
        if (value instanceof String id) {
            Map<String, Object> expanded = byId(id).orElseThrow(
                            () -> StripeError.invalid("expand", "This property cannot be expanded (" + path + ")."));
            map.put(field, expanded);
            expand(expanded, rest, path);
        } else if (value instanceof Map) {
            expand(value, rest, path);
        } else if (value != null) {
            throw StripeError.invalid("expand", "This property cannot be expanded (" + path + ").");
        }
    }

    private StoredPrice priceOf(String id) {
        return objects.price(id).orElseThrow(() -> new IllegalStateException("price " + id + " vanished"));
    }

    private static Map<String, Object> nullValued(String key) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put(key, null);
        return map;
    }

    static String money(long cents) {
        return String.format("$%d.%02d", cents / 100, cents % 100);
    }
}
