package com.kvportal.billing;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Webhook payloads in the shapes Stripe sends at its current API version (modelled on Stripe's own example
 * objects): subscription periods on {@code items.data[]}. The invoice of a subscription is
 * {@link ProviderCustomer#invoice}, which knows the subscription and its period.
 */
final class StripePayloads {

    static final String API_VERSION = "2025-08-27.basil";

    private StripePayloads() {}

    static String eventId() {
        return "evt_" + random();
    }

    static String random() {
        return UUID.randomUUID().toString().replace("-", "").substring(0, 24);
    }

    /** An event about {@code object} under a fresh id. */
    static String event(String type, Instant created, String object) {
        return event(eventId(), type, created, object);
    }

    static String event(String id, String type, Instant created, String object) {
        return """
                {
                  "id": "%s",
                  "object": "event",
                  "api_version": "%s",
                  "created": %d,
                  "data": {
                    "object": %s,
                    "previous_attributes": {}
                  },
                  "livemode": false,
                  "pending_webhooks": 1,
                  "request": {"id": null, "idempotency_key": null},
                  "type": "%s"
                }"""
                .formatted(id, API_VERSION, created.getEpochSecond(), object, type);
    }

    /** A subscription with one item of {@code price}. */
    static String subscription(
            String id,
            String customer,
            String status,
            String price,
            Instant periodStart,
            Instant periodEnd,
            @Nullable Instant cancelAt,
            boolean cancelAtPeriodEnd) {
        return """
                {
                  "id": "%1$s",
                  "object": "subscription",
                  "application": null,
                  "application_fee_percent": null,
                  "automatic_tax": {"enabled": false, "liability": null, "disabled_reason": null},
                  "billing_cycle_anchor": %5$d,
                  "billing_cycle_anchor_config": null,
                  "billing_mode": {"type": "classic"},
                  "cancel_at": %7$s,
                  "cancel_at_period_end": %8$s,
                  "canceled_at": null,
                  "cancellation_details": {"comment": null, "feedback": null, "reason": null},
                  "collection_method": "charge_automatically",
                  "created": %5$d,
                  "currency": "usd",
                  "customer": "%2$s",
                  "days_until_due": null,
                  "default_payment_method": "pm_1PgafyB7WZ01zgkW9sRy3HtW",
                  "default_source": null,
                  "default_tax_rates": [],
                  "description": null,
                  "discounts": [],
                  "ended_at": null,
                  "invoice_settings": {"account_tax_ids": null, "issuer": {"type": "self"}},
                  "items": {
                    "object": "list",
                    "data": [
                      {
                        "id": "si_%9$s",
                        "object": "subscription_item",
                        "created": %5$d,
                        "current_period_end": %6$d,
                        "current_period_start": %5$d,
                        "discounts": [],
                        "metadata": {},
                        "price": {
                          "id": "%4$s",
                          "object": "price",
                          "active": true,
                          "billing_scheme": "per_unit",
                          "created": 1721948530,
                          "currency": "usd",
                          "custom_unit_amount": null,
                          "livemode": false,
                          "lookup_key": null,
                          "metadata": {},
                          "nickname": null,
                          "product": "prod_QXg1hqf4jFNsqG",
                          "recurring": {"interval": "month", "interval_count": 1, "meter": null,
                                        "trial_period_days": null, "usage_type": "licensed"},
                          "tax_behavior": "unspecified",
                          "tiers_mode": null,
                          "transform_quantity": null,
                          "type": "recurring",
                          "unit_amount": 2000,
                          "unit_amount_decimal": "2000"
                        },
                        "quantity": 1,
                        "subscription": "%1$s",
                        "tax_rates": []
                      }
                    ],
                    "has_more": false,
                    "total_count": 1,
                    "url": "/v1/subscription_items?subscription=%1$s"
                  },
                  "latest_invoice": "in_%9$s",
                  "livemode": false,
                  "metadata": {},
                  "next_pending_invoice_item_invoice": null,
                  "on_behalf_of": null,
                  "pause_collection": null,
                  "payment_settings": {"payment_method_options": null, "payment_method_types": null,
                                       "save_default_payment_method": "off"},
                  "pending_invoice_item_interval": null,
                  "pending_setup_intent": null,
                  "pending_update": null,
                  "schedule": null,
                  "start_date": %5$d,
                  "status": "%3$s",
                  "test_clock": null,
                  "transfer_data": null,
                  "trial_end": null,
                  "trial_settings": {"end_behavior": {"missing_payment_method": "create_invoice"}},
                  "trial_start": null
                }"""
                .formatted(
                        id,
                        customer,
                        status,
                        price,
                        periodStart.getEpochSecond(),
                        periodEnd.getEpochSecond(),
                        cancelAt == null ? "null" : String.valueOf(cancelAt.getEpochSecond()),
                        cancelAtPeriodEnd,
                        random());
    }

    /** An invoice line of a Stripe invoice item (e.g. the storage overage), with {@code metadata.kind}. */
    static String itemLine(String invoice, String description, long quantity, long amount, @Nullable String kind) {
        return """
                      {
                        "id": "il_%1$s",
                        "object": "line_item",
                        "amount": %5$d,
                        "currency": "usd",
                        "description": "%3$s",
                        "discount_amounts": [],
                        "discountable": true,
                        "discounts": [],
                        "invoice": "%2$s",
                        "livemode": false,
                        "metadata": %6$s,
                        "parent": {
                          "invoice_item_details": {"invoice_item": "ii_%1$s", "proration": false,
                                                   "proration_details": {"credited_items": null},
                                                   "subscription": null},
                          "subscription_item_details": null,
                          "type": "invoice_item_details"
                        },
                        "period": {"end": 1721948530, "start": 1719356530},
                        "pretax_credit_amounts": [],
                        "pricing": {"price_details": {"price": "price_overage", "product": "prod_overage"},
                                    "type": "price_details", "unit_amount_decimal": "%7$d"},
                        "quantity": %4$d,
                        "taxes": []
                      }"""
                .formatted(
                        random(),
                        invoice,
                        description,
                        quantity,
                        amount,
                        kind == null ? "{}" : "{\"kind\": \"" + kind + "\", \"organization_id\": \"x\"}",
                        quantity == 0 ? 0 : amount / quantity);
    }

    /** A completed subscription-mode checkout session. */
    static String checkoutSession(
            String id, UUID organizationId, UUID customerId, String customer, String subscription) {
        return """
                {
                  "id": "%1$s",
                  "object": "checkout.session",
                  "amount_subtotal": 2000,
                  "amount_total": 2000,
                  "cancel_url": "http://localhost:8080/api/v1/billing/checkout/cancel",
                  "client_reference_id": "%2$s",
                  "created": 1721954000,
                  "currency": "usd",
                  "customer": "%4$s",
                  "customer_details": {"email": "owner@example.com", "name": null, "phone": null,
                                       "tax_exempt": "none", "tax_ids": []},
                  "customer_email": null,
                  "expires_at": 1722040400,
                  "invoice": "in_%6$s",
                  "livemode": false,
                  "metadata": {"organization_id": "%2$s", "customer_id": "%3$s"},
                  "mode": "subscription",
                  "payment_intent": null,
                  "payment_method_types": ["card"],
                  "payment_status": "paid",
                  "status": "complete",
                  "subscription": "%5$s",
                  "success_url": "http://localhost:8080/api/v1/billing/checkout/success?session_id={CHECKOUT_SESSION_ID}",
                  "url": null
                }"""
                .formatted(id, organizationId, customerId, customer, subscription, random());
    }
}
