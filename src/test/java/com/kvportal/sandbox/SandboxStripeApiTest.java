package com.kvportal.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.stripe.exception.AuthenticationException;
import com.stripe.exception.IdempotencyException;
import com.stripe.exception.InvalidRequestException;
import com.stripe.exception.StripeException;
import com.stripe.model.Customer;
import com.stripe.model.Invoice;
import com.stripe.model.Subscription;
import com.stripe.model.SubscriptionItem;
import com.stripe.model.billingportal.Session;
import com.stripe.net.RequestOptions;
import com.stripe.param.CustomerCreateParams;
import com.stripe.param.SubscriptionUpdateParams;
import com.stripe.param.billingportal.SessionCreateParams;
import com.stripe.param.checkout.SessionRetrieveParams;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** stripe-java 33.3.0, unchanged, against the sandbox's Stripe API: it must not tell the sandbox from Stripe. */
class SandboxStripeApiTest extends SandboxTest {

    @Test
    void shouldCreateAndRetrieveACustomerWithStripeJava() throws StripeException {
        Customer created = stripeClient()
                .v1()
                .customers()
                .create(CustomerCreateParams.builder()
                        .setEmail("owner@example.com")
                        .setName("Acme")
                        .putMetadata("organization_id", "4b7c")
                        .build());

        assertThat(created.getId()).startsWith("cus_");
        assertThat(created.getLivemode()).isFalse();
        Customer fetched = stripeClient().v1().customers().retrieve(created.getId());
        assertThat(fetched.getEmail()).isEqualTo("owner@example.com");
        assertThat(fetched.getName()).isEqualTo("Acme");
        assertThat(fetched.getMetadata()).containsEntry("organization_id", "4b7c");
        assertThat(fetched.getCreated())
                .isCloseTo(Instant.now().getEpochSecond(), org.assertj.core.data.Offset.offset(5L));
    }

    @Test
    void shouldShowAnOpenSessionPastItsExpiryAsExpiredAndRefuseToPayIt() throws StripeException {
        com.stripe.model.checkout.Session open = openCheckout("late@example.com");
        jdbc.sql("update sandbox.sandbox_checkout_sessions set expires_at = ? where id = ?")
                .params(Instant.now().getEpochSecond() - 1, open.getId())
                .update();

        com.stripe.model.checkout.Session expired =
                stripeClient().v1().checkout().sessions().retrieve(open.getId());
        assertThat(expired.getStatus()).isEqualTo("expired");

        Reply pay = pay(open, "{\"outcome\":\"succeeded\"}");
        assertThat(pay.status()).isEqualTo(400);
        assertThat(expired.getSubscription()).isNull();
    }

    @Test
    void shouldRunACheckoutFromSessionToPaidSubscriptionAndInvoice() throws StripeException {
        com.stripe.model.checkout.Session open = openCheckout("buyer@example.com");

        assertThat(open.getId()).startsWith("cs_");
        assertThat(open.getObject()).isEqualTo("checkout.session");
        assertThat(open.getStatus()).isEqualTo("open");
        assertThat(open.getPaymentStatus()).isEqualTo("unpaid");
        assertThat(open.getUrl()).isEqualTo(baseUrl() + "/sandbox/checkout/" + open.getId());
        assertThat(open.getClientReferenceId()).isEqualTo("org-1");
        assertThat(open.getMetadata()).containsEntry("organization_id", "org-1");
        assertThat(open.getSubscription()).isNull();

        com.stripe.model.checkout.Session expandedOpen = stripeClient()
                .v1()
                .checkout()
                .sessions()
                .retrieve(
                        open.getId(),
                        SessionRetrieveParams.builder().addExpand("customer").build());
        assertThat(expandedOpen.getCustomerObject().getEmail()).isEqualTo("buyer@example.com");

        Reply paid = pay(open, "{\"outcome\":\"succeeded\"}");
        assertThat(paid.status()).isEqualTo(303);
        assertThat(paid.header("Location"))
                .isEqualTo(baseUrl() + "/api/v1/billing/checkout/success?session_id=" + open.getId());

        com.stripe.model.checkout.Session complete = stripeClient()
                .v1()
                .checkout()
                .sessions()
                .retrieve(
                        open.getId(),
                        SessionRetrieveParams.builder()
                                .addExpand("subscription")
                                .build());
        assertThat(complete.getStatus()).isEqualTo("complete");
        assertThat(complete.getPaymentStatus()).isEqualTo("paid");
        assertThat(complete.getCustomer()).isEqualTo(open.getCustomer());
        assertThat(complete.getUrl()).isNull();
        Subscription expanded = complete.getSubscriptionObject();
        assertThat(expanded).isNotNull();
        assertThat(expanded.getId()).startsWith("sub_");

        Subscription subscription = stripeClient().v1().subscriptions().retrieve(expanded.getId());
        assertThat(subscription.getStatus()).isEqualTo("active");
        assertThat(subscription.getCustomer()).isEqualTo(open.getCustomer());
        assertThat(subscription.getCancelAtPeriodEnd()).isFalse();
        assertThat(subscription.getCancelAt()).isNull();
        assertThat(subscription.getMetadata()).containsEntry("organization_id", "org-1");
        SubscriptionItem item = subscription.getItems().getData().get(0);
        assertThat(item.getId()).startsWith("si_");
        assertThat(item.getPrice().getId()).isEqualTo(SandboxStandIn.PRICE_PRO);
        assertThat(item.getPrice().getUnitAmount()).isEqualTo(2000L);
        assertThat(item.getPrice().getRecurring().getInterval()).isEqualTo("month");
        assertThat(item.getCurrentPeriodEnd())
                .isEqualTo(Instant.ofEpochSecond(item.getCurrentPeriodStart())
                        .atZone(ZoneOffset.UTC)
                        .plusMonths(1)
                        .toEpochSecond());

        Invoice invoice = stripeClient().v1().invoices().retrieve(subscription.getLatestInvoice());
        assertThat(invoice.getId()).startsWith("in_");
        assertThat(invoice.getStatus()).isEqualTo("paid");
        assertThat(invoice.getAmountDue()).isEqualTo(2000L);
        assertThat(invoice.getAmountPaid()).isEqualTo(2000L);
        assertThat(invoice.getAmountRemaining()).isZero();
        assertThat(invoice.getCurrency()).isEqualTo("usd");
        assertThat(invoice.getAttemptCount()).isEqualTo(1L);
        assertThat(invoice.getCustomer()).isEqualTo(open.getCustomer());
        assertThat(invoice.getBillingReason()).isEqualTo("subscription_create");
        assertThat(invoice.getHostedInvoiceUrl()).isEqualTo(baseUrl() + "/sandbox/invoices/" + invoice.getId());
        assertThat(invoice.getParent().getType()).isEqualTo("subscription_details");
        assertThat(invoice.getParent().getSubscriptionDetails().getSubscription())
                .isEqualTo(subscription.getId());
        assertThat(invoice.getLines().getData().get(0).getPeriod().getEnd()).isEqualTo(item.getCurrentPeriodEnd());
        assertThat(invoice.getLines()
                        .getData()
                        .get(0)
                        .getPricing()
                        .getPriceDetails()
                        .getPrice())
                .isEqualTo(SandboxStandIn.PRICE_PRO);

        Session portal = stripeClient()
                .v1()
                .billingPortal()
                .sessions()
                .create(SessionCreateParams.builder()
                        .setCustomer(open.getCustomer())
                        .setReturnUrl(baseUrl() + "/dashboard/billing")
                        .build());
        assertThat(portal.getId()).startsWith("bps_");
        assertThat(portal.getObject()).isEqualTo("billing_portal.session");
        assertThat(portal.getUrl()).isEqualTo(baseUrl() + "/sandbox/portal/" + portal.getId());
        assertThat(portal.getReturnUrl()).isEqualTo(baseUrl() + "/dashboard/billing");
        assertThat(portal.getCustomer()).isEqualTo(open.getCustomer());

        Subscription canceling = stripeClient()
                .v1()
                .subscriptions()
                .update(
                        subscription.getId(),
                        SubscriptionUpdateParams.builder()
                                .setCancelAtPeriodEnd(true)
                                .build());
        assertThat(canceling.getCancelAtPeriodEnd()).isTrue();
        assertThat(canceling.getCancelAt()).isEqualTo(item.getCurrentPeriodEnd());
        assertThat(canceling.getCanceledAt()).isNotNull();
        assertThat(canceling.getStatus()).isEqualTo("active");

        Subscription resumed = stripeClient()
                .v1()
                .subscriptions()
                .update(
                        subscription.getId(),
                        SubscriptionUpdateParams.builder()
                                .setCancelAtPeriodEnd(false)
                                .build());
        assertThat(resumed.getCancelAtPeriodEnd()).isFalse();
        assertThat(resumed.getCancelAt()).isNull();
        assertThat(resumed.getCanceledAt()).isNull();
        assertThat(eventTypesAbout(subscription.getId()))
                .containsSubsequence("customer.subscription.updated", "customer.subscription.updated");
    }

    @Test
    void shouldSetAndClearAnExplicitCancelAt() throws StripeException {
        String subscriptionId = payAndSubscribe(openCheckout("cancel-at@example.com"));
        long inTenDays = Instant.now().getEpochSecond() + 10 * 86400;

        Subscription scheduled = stripeClient()
                .v1()
                .subscriptions()
                .update(
                        subscriptionId,
                        SubscriptionUpdateParams.builder()
                                .setCancelAt(inTenDays)
                                .build());

        assertThat(scheduled.getCancelAt()).isEqualTo(inTenDays);
        assertThat(scheduled.getCancelAtPeriodEnd()).isFalse();
        Reply cleared = stripeApi("POST", "/v1/subscriptions/" + subscriptionId, "cancel_at=");
        assertThat(cleared.status()).isEqualTo(200);
        assertThat(cleared.json().get("cancel_at").isNull()).isTrue();
    }

    @Test
    void shouldReplayTheFirstAnswerForARepeatedIdempotencyKey() throws StripeException {
        RequestOptions options = RequestOptions.builder()
                .setIdempotencyKey("key-" + System.nanoTime())
                .build();
        CustomerCreateParams params =
                CustomerCreateParams.builder().setEmail("once@example.com").build();

        Customer first = stripeClient().v1().customers().create(params, options);
        Customer second = stripeClient().v1().customers().create(params, options);

        assertThat(second.getId()).isEqualTo(first.getId());
        assertThat(second.getLastResponse().headers().firstValue("Idempotent-Replayed"))
                .contains("true");
        assertThat(count("select count(*) from sandbox.sandbox_customers where email = 'once@example.com'"))
                .isEqualTo(1L);
        assertThatThrownBy(() -> stripeClient()
                        .v1()
                        .customers()
                        .create(
                                CustomerCreateParams.builder()
                                        .setEmail("other@example.com")
                                        .build(),
                                options))
                .isInstanceOf(IdempotencyException.class)
                .hasMessageContaining("same parameters");
    }

    @Test
    void shouldRaiseInvalidRequestExceptionWith404ForUnknownIds() {
        assertThatThrownBy(() -> stripeClient().v1().customers().retrieve("cus_missing"))
                .isInstanceOfSatisfying(InvalidRequestException.class, e -> {
                    assertThat(e.getStatusCode()).isEqualTo(404);
                    assertThat(e.getCode()).isEqualTo("resource_missing");
                    assertThat(e.getStripeError().getMessage()).contains("cus_missing");
                });
        assertThatThrownBy(() -> stripeClient().v1().subscriptions().retrieve("sub_missing"))
                .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.getStatusCode())
                        .isEqualTo(404));
        assertThatThrownBy(() -> stripeClient().v1().invoices().retrieve("in_missing"))
                .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.getStatusCode())
                        .isEqualTo(404));
        assertThatThrownBy(() -> stripeClient().v1().checkout().sessions().retrieve("cs_test_missing"))
                .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.getStatusCode())
                        .isEqualTo(404));
        assertThatThrownBy(() -> stripeClient()
                        .v1()
                        .subscriptions()
                        .update(
                                "sub_missing",
                                SubscriptionUpdateParams.builder()
                                        .setCancelAtPeriodEnd(true)
                                        .build()))
                .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.getStatusCode())
                        .isEqualTo(404));
    }

    /** A checkout session created through Stripe's API with this form. */
    private Reply checkout(String form) {
        return stripeApi("POST", "/v1/checkout/sessions", form);
    }

    private long checkoutSessions() {
        return count("select count(*) from sandbox.sandbox_checkout_sessions");
    }

    @Test
    void shouldRefuseACheckoutForAnUnknownPriceOrCustomerWith400() {
        long before = checkoutSessions();
        Reply unknownPrice = checkout("mode=subscription&line_items[0][price]=price_nope&line_items[0][quantity]=1"
                + "&success_url=" + baseUrl() + "/ok");
        assertStripeError(unknownPrice, 400, "resource_missing");
        assertThat(unknownPrice.json().at("/error/param").asString()).isEqualTo("line_items[0][price]");

        Reply unknownCustomer = checkout("mode=subscription&customer=cus_nope&line_items[0][price]=price_sandbox_pro"
                + "&success_url=" + baseUrl() + "/ok");
        assertStripeError(unknownCustomer, 400, "resource_missing");
        assertThat(checkoutSessions()).isEqualTo(before);
    }

    @Test
    void shouldRefuseBadCheckoutParametersWith400AndCreateNothing() {
        long before = checkoutSessions();
        String valid = "mode=subscription&line_items[0][price]=price_sandbox_pro&success_url=" + baseUrl() + "/ok";

        Reply script =
                checkout("mode=subscription&line_items[0][price]=price_sandbox_pro&success_url=javascript:alert(1)");
        Reply payment = checkout(valid.replace("subscription", "payment"));
        Reply unknown = checkout(valid + "&colour=red");
        Reply noSuccessUrl = checkout("mode=subscription&line_items[0][price]=price_sandbox_pro");
        Reply zero = checkout(valid + "&line_items[0][quantity]=0");

        assertStripeError(script, 400, "parameter_invalid");
        assertThat(payment.status()).isEqualTo(400);
        assertThat(payment.json().at("/error/param").asString()).isEqualTo("mode");
        assertStripeError(unknown, 400, "parameter_unknown");
        assertStripeError(noSuccessUrl, 400, "parameter_missing");
        assertThat(zero.status()).isEqualTo(400);
        assertThat(checkoutSessions()).isEqualTo(before);
    }

    @Test
    void shouldAnswer401WithoutATestKey() {
        Reply none = get("/sandbox/stripe/v1/customers/cus_x");
        Reply live = get("/sandbox/stripe/v1/customers/cus_x", "Authorization", "Bearer sk_live_abcdef");

        assertThat(none.status()).isEqualTo(401);
        assertThat(none.json().at("/error/type").asString()).isEqualTo("invalid_request_error");
        assertThat(none.json().at("/error/message").asString()).contains("API key");
        assertThat(live.status()).isEqualTo(401);
        assertThat(live.body()).doesNotContain("sk_live_abcdef");
        assertThatThrownBy(() -> com.stripe.StripeClient.builder()
                        .setApiKey("pk_test_public")
                        .setApiBase(provider.apiBase())
                        .build()
                        .v1()
                        .customers()
                        .retrieve("cus_x"))
                .isInstanceOf(AuthenticationException.class);
    }

    @Test
    void shouldAcceptTheKeyAsBasicAuthLikeCurl() {
        String basic = java.util.Base64.getEncoder().encodeToString((provider.secretKey() + ":").getBytes());
        Reply reply = get("/sandbox/stripe/v1/prices/price_sandbox_pro", "Authorization", "Basic " + basic);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().get("unit_amount").asLong()).isEqualTo(2000L);
        assertThat(reply.json().get("object").asString()).isEqualTo("price");
    }

    @Test
    void shouldAnswer404InStripesShapeForAnUnrecognizedUrl() {
        Reply reply = stripeApi("GET", "/v1/charges", null);

        assertThat(reply.status()).isEqualTo(404);
        assertThat(reply.json().at("/error/type").asString()).isEqualTo("invalid_request_error");
        assertThat(reply.json().at("/error/message").asString()).contains("Unrecognized request URL");
    }

    @Test
    void shouldAnswer400NotA500ToParametersThatCannotBeDecodedAndCreateNothing() {
        long before = count("select count(*) from sandbox.sandbox_customers");
        // a bad %-escape, bytes that are not UTF-8 once decoded, a control character in a parameter name
        for (String form : new String[] {"email=%ZZ", "email=%C0%AF", "metadata[%00]=1"}) {
            Reply reply = stripeApi("POST", "/v1/customers", form);
            assertThat(reply.status()).as(form + " " + reply.body()).isEqualTo(400);
        }
        assertThat(count("select count(*) from sandbox.sandbox_customers")).isEqualTo(before);
    }

    @Test
    void shouldListTheCustomersSubscriptionsAndInvoices() throws StripeException {
        com.stripe.model.checkout.Session session = openCheckout("lists@example.com");
        String subscriptionId = payAndSubscribe(session);

        Reply subscriptions = stripeApi(
                "GET", "/v1/subscriptions?customer=" + session.getCustomer() + "&expand[]=data.customer", null);
        Reply invoices = stripeApi("GET", "/v1/invoices?subscription=" + subscriptionId, null);

        assertThat(subscriptions.status()).isEqualTo(200);
        assertThat(subscriptions.json().get("object").asString()).isEqualTo("list");
        assertThat(subscriptions.json().at("/data/0/id").asString()).isEqualTo(subscriptionId);
        assertThat(subscriptions.json().at("/data/0/customer/email").asString()).isEqualTo("lists@example.com");
        assertThat(invoices.json()
                        .at("/data/0/parent/subscription_details/subscription")
                        .asString())
                .isEqualTo(subscriptionId);
    }
}
