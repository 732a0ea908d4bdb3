package com.kvportal.billing;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.sandbox.SandboxStandIn;
import com.kvportal.support.Api;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * An organization linked to a provider customer, as its first checkout leaves it, and the provider's news about its
 * one subscription to pro: Stripe's payloads for this customer and subscription, signed and delivered to the webhook.
 */
record ProviderCustomer(
        Api owner,
        Api.Account account,
        String customer,
        String subscriptionId,
        Instant periodStart,
        Instant periodEnd,
        Webhooks webhooks) {

    private static final String PRICE_PRO = SandboxStandIn.PRICE_PRO;

    /**
     * Signs up an organization and links it to a new provider customer; the subscription's 30-day period began
     * {@code periodSoFar} ago, to the second.
     */
    static ProviderCustomer signUp(String baseUrl, JdbcClient jdbc, Duration periodSoFar) {
        Api owner = new Api(baseUrl);
        Api.Account account = owner.signup();
        Instant periodStart = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(periodSoFar);
        return new ProviderCustomer(
                owner,
                account,
                link(jdbc, account),
                "sub_" + StripePayloads.random(),
                periodStart,
                periodStart.plus(Duration.ofDays(30)),
                new Webhooks(baseUrl));
    }

    /** Links the organization to a new provider customer, as a checkout does; answers the customer's id. */
    static String link(JdbcClient jdbc, Api.Account account) {
        String customer = "cus_" + StripePayloads.random();
        jdbc.sql("insert into billing_accounts (organization_id, provider_customer_id, customer_id) values (?, ?, ?)")
                .params(account.organizationId(), customer, account.customerId())
                .update();
        return customer;
    }

    UUID organizationId() {
        return account.organizationId();
    }

    /** The subscription to pro over the period, in this status, not set to cancel. */
    String subscription(String status) {
        return subscription(status, null, false);
    }

    String subscription(String status, @Nullable Instant cancelAt, boolean cancelAtPeriodEnd) {
        return StripePayloads.subscription(
                subscriptionId, customer, status, PRICE_PRO, periodStart, periodEnd, cancelAt, cancelAtPeriodEnd);
    }

    /** The subscription, active over the period, to whatever this price sells. */
    String activeSubscriptionTo(String price) {
        return StripePayloads.subscription(
                subscriptionId, customer, "active", price, periodStart, periodEnd, null, false);
    }

    /** The subscription's {@code type} event, stamped {@code created}. */
    String subscriptionEvent(String type, Instant created, String status) {
        return StripePayloads.event(type, created, subscription(status));
    }

    /** The same subscription as the news of another customer names it. */
    ProviderCustomer withCustomer(String customer) {
        return new ProviderCustomer(owner, account, customer, subscriptionId, periodStart, periodEnd, webhooks);
    }

    /** The same subscription over another period. */
    ProviderCustomer over(Instant periodStart, Instant periodEnd) {
        return new ProviderCustomer(owner, account, customer, subscriptionId, periodStart, periodEnd, webhooks);
    }

    /** A renewal invoice of the subscription for the period, with its one subscription line. */
    String invoice(String id, String status, long amountDue, long amountPaid, int attemptCount, Instant created) {
        return invoice(id, status, "subscription_cycle", amountDue, amountPaid, attemptCount, created, List.of());
    }

    /**
     * An invoice of the subscription for the period, in Stripe's shape (its subscription at
     * {@code parent.subscription_details.subscription}): its subscription line, then {@code extraLines} (see
     * {@link StripePayloads#itemLine}).
     */
    String invoice(
            String id,
            String status,
            String billingReason,
            long amountDue,
            long amountPaid,
            int attemptCount,
            Instant created,
            List<String> extraLines) {
        return """
                {
                  "id": "%1$s",
                  "object": "invoice",
                  "account_country": "US",
                  "account_name": "kv-portal",
                  "amount_due": %5$d,
                  "amount_overpaid": 0,
                  "amount_paid": %6$d,
                  "amount_remaining": %10$d,
                  "amount_shipping": 0,
                  "attempt_count": %7$d,
                  "attempted": %11$s,
                  "auto_advance": %12$s,
                  "automatic_tax": {"enabled": false, "liability": null, "status": null},
                  "billing_reason": "%16$s",
                  "collection_method": "charge_automatically",
                  "created": %8$d,
                  "currency": "usd",
                  "customer": "%2$s",
                  "customer_email": "owner@example.com",
                  "customer_name": null,
                  "default_payment_method": null,
                  "description": null,
                  "discounts": [],
                  "due_date": null,
                  "effective_at": %8$d,
                  "hosted_invoice_url": "https://invoice.stripe.com/i/acct_test/%1$s",
                  "invoice_pdf": "https://pay.stripe.com/invoice/acct_test/%1$s/pdf",
                  "issuer": {"type": "self"},
                  "last_finalization_error": null,
                  "lines": {
                    "object": "list",
                    "data": [
                      {
                        "id": "il_%13$s",
                        "object": "line_item",
                        "amount": %19$d,
                        "currency": "usd",
                        "description": "1 × Pro (at $20.00 / month)",
                        "discount_amounts": [],
                        "discountable": true,
                        "discounts": [],
                        "invoice": "%1$s",
                        "livemode": false,
                        "metadata": {},
                        "parent": {
                          "invoice_item_details": null,
                          "subscription_item_details": {
                            "invoice_item": null,
                            "proration": false,
                            "proration_details": {"credited_items": null},
                            "subscription": "%3$s",
                            "subscription_item": "si_%13$s"
                          },
                          "type": "subscription_item_details"
                        },
                        "period": {"end": %15$d, "start": %14$d},
                        "pretax_credit_amounts": [],
                        "pricing": {"price_details": {"price": "price_pro", "product": "prod_QXg1hqf4jFNsqG"},
                                    "type": "price_details", "unit_amount_decimal": "2000"},
                        "quantity": 1,
                        "taxes": []
                      }%17$s
                    ],
                    "has_more": false,
                    "total_count": %18$d,
                    "url": "/v1/invoices/%1$s/lines"
                  },
                  "livemode": false,
                  "metadata": {},
                  "next_payment_attempt": null,
                  "number": "ABC-0001",
                  "on_behalf_of": null,
                  "parent": {
                    "quote_details": null,
                    "subscription_details": {"metadata": {}, "subscription": "%3$s"},
                    "type": "subscription_details"
                  },
                  "payment_settings": {"default_mandate": null, "payment_method_options": null,
                                       "payment_method_types": null},
                  "period_end": %15$d,
                  "period_start": %14$d,
                  "post_payment_credit_notes_amount": 0,
                  "pre_payment_credit_notes_amount": 0,
                  "receipt_number": null,
                  "starting_balance": 0,
                  "statement_descriptor": null,
                  "status": "%4$s",
                  "status_transitions": {"finalized_at": %8$d, "marked_uncollectible_at": null,
                                         "paid_at": null, "voided_at": null},
                  "subtotal": %5$d,
                  "subtotal_excluding_tax": %5$d,
                  "test_clock": null,
                  "total": %5$d,
                  "total_discount_amounts": [],
                  "total_excluding_tax": %5$d,
                  "total_pretax_credit_amounts": [],
                  "total_taxes": [],
                  "webhooks_delivered_at": %8$d
                }"""
                .formatted(
                        id,
                        customer,
                        subscriptionId,
                        status,
                        amountDue,
                        amountPaid,
                        attemptCount,
                        created.getEpochSecond(),
                        null,
                        amountDue - amountPaid,
                        attemptCount > 0,
                        !status.equals("paid"),
                        StripePayloads.random(),
                        periodStart.getEpochSecond(),
                        periodEnd.getEpochSecond(),
                        billingReason,
                        extraLines.stream().map(line -> ",\n" + line).collect(Collectors.joining()),
                        1 + extraLines.size(),
                        extraLines.isEmpty() ? amountDue : 2000);
    }

    /** A completed checkout of the subscription, naming this organization's customer account. */
    String completedCheckout(UUID organizationId, String customer) {
        return completedCheckout(StripePayloads.eventId(), organizationId, customer);
    }

    String completedCheckout(String eventId, UUID organizationId, String customer) {
        return StripePayloads.event(
                eventId,
                "checkout.session.completed",
                Instant.now(),
                StripePayloads.checkoutSession(
                        "cs_test_" + StripePayloads.random(),
                        organizationId,
                        account.customerId(),
                        customer,
                        subscriptionId));
    }

    /** Delivers the body signed now, as the provider does. */
    Api.Response deliver(String body) {
        return webhooks.deliver(body);
    }

    /** Delivers the body signed now, and checks that the webhook took it. */
    void deliverOk(String body) {
        Api.Response response = webhooks.deliver(body);
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
    }

    /** The organization's subscription as the portal shows it. */
    JsonNode currentSubscription() {
        Api.Response response = owner.get("/api/v1/billing/subscription");
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return response.json().get("subscription");
    }

    /** The organization's invoices as the portal lists them, newest first. */
    JsonNode invoices() {
        return owner.get("/api/v1/billing/invoices").json().get("invoices");
    }
}
