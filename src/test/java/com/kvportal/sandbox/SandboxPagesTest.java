package com.kvportal.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.stripe.exception.StripeException;
import com.stripe.model.checkout.Session;
import com.stripe.param.billingportal.SessionCreateParams;
import org.junit.jupiter.api.Test;

/** The hosted checkout, portal and invoice pages: buttons with stable ids, escaped text, 404 for unknown ids. */
class SandboxPagesTest extends SandboxTest {

    @Test
    void shouldRenderTheCheckoutPageWithItsThreeButtons() throws StripeException {
        Session session = openCheckout("page@example.com");

        Reply page = page("/sandbox/checkout/" + session.getId());

        assertThat(page.status()).isEqualTo(200);
        assertThat(page.header("Content-Type")).startsWith("text/html");
        assertThat(page.header("Content-Security-Policy")).contains("default-src 'self'");
        assertThat(page.body())
                .contains("SANDBOX — no real money")
                .contains("$20.00")
                .contains("page@example.com")
                .contains("id=\"pay\"")
                .contains("id=\"pay-declined\"")
                .contains("id=\"go-back\" href=\"" + baseUrl() + "/api/v1/billing/checkout/cancel\"")
                .contains("action=\"/sandbox/checkout/" + session.getId() + "/pay\"")
                .doesNotContain("<script");
    }

    @Test
    void shouldEscapeTextAndUrlsOnTheCheckoutPage() {
        String customer = stripeApi("POST", "/v1/customers", "email=a%3Cb%3E%22x%27%40example.com")
                .json()
                .get("id")
                .asString();
        String session = stripeApi(
                        "POST",
                        "/v1/checkout/sessions",
                        "mode=subscription&customer=" + customer + "&line_items[0][price]=price_sandbox_pro"
                                + "&success_url=" + baseUrl() + "/ok&cancel_url="
                                + baseUrl().replace(":", "%3A").replace("/", "%2F")
                                + "%2Fback%3Fa%3D1%26b%3D%27x%27")
                .json()
                .get("id")
                .asString();

        Reply page = page("/sandbox/checkout/" + session);

        assertThat(page.body())
                .contains("a&lt;b&gt;&quot;x&#39;@example.com")
                .doesNotContain("a<b>")
                .contains("href=\"" + baseUrl() + "/back?a=1&amp;b=&#39;x&#39;\"");
    }

    @Test
    void shouldAnswerADeclinedFormPostWith402AndThePageAgain() throws StripeException {
        Session session = openCheckout("declined-page@example.com");

        Reply declined = postForm("/sandbox/checkout/" + session.getId() + "/pay", "outcome=card_declined");

        assertThat(declined.status()).isEqualTo(402);
        assertThat(declined.header("Content-Type")).startsWith("text/html");
        assertThat(declined.body()).contains("declined").contains("id=\"pay\"");
    }

    @Test
    void shouldShowACompleteSessionAsPaidWithoutPayButtons() throws StripeException {
        Session session = openCheckout("paid-page@example.com");
        Reply paid = postForm("/sandbox/checkout/" + session.getId() + "/pay", "outcome=succeeded");
        assertThat(paid.status()).isEqualTo(303);

        Reply page = page("/sandbox/checkout/" + session.getId());

        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("id=\"continue\"").doesNotContain("id=\"pay\"");
    }

    @Test
    void shouldAnswer404PagesForUnknownIds() {
        Reply checkout = page("/sandbox/checkout/cs_test_unknown");
        Reply portal = page("/sandbox/portal/bps_unknown");
        Reply invoice = page("/sandbox/invoices/in_unknown");
        Reply pay = postForm("/sandbox/checkout/cs_test_unknown/pay", "outcome=succeeded");

        assertThat(checkout.status()).isEqualTo(404);
        assertThat(checkout.header("Content-Type")).startsWith("text/html");
        assertThat(portal.status()).isEqualTo(404);
        assertThat(invoice.status()).isEqualTo(404);
        assertThat(pay.status()).isEqualTo(404);
    }

    @Test
    void shouldCancelAndResumeFromThePortalPage() throws StripeException {
        Session session = openCheckout("portal@example.com");
        String subscriptionId = payAndSubscribe(session);
        String portal = portalFor(session.getCustomer());

        Reply page = page("/sandbox/portal/" + portal);
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body())
                .contains("id=\"cancel-subscription\"")
                .contains("Renews on")
                .contains("active")
                .contains("id=\"return\" href=\"" + baseUrl() + "/dashboard/billing\"")
                .doesNotContain("id=\"resume-subscription\"");
        long before = settledEventCountAbout(session.getCustomer());

        Reply cancel = postForm("/sandbox/portal/" + portal + "/subscriptions/" + subscriptionId + "/cancel", "");

        assertThat(cancel.status()).isEqualTo(303);
        assertThat(cancel.header("Location")).isEqualTo("/sandbox/portal/" + portal);
        assertThat(stripeClient().v1().subscriptions().retrieve(subscriptionId).getCancelAtPeriodEnd())
                .isTrue();
        assertThat(eventTypesOfCustomerAfter(session.getCustomer(), before))
                .containsExactly("customer.subscription.updated");
        assertThat(page("/sandbox/portal/" + portal).body())
                .contains("id=\"resume-subscription\"")
                .contains("Cancels on")
                .doesNotContain("id=\"cancel-subscription\"");

        Reply resume = postForm("/sandbox/portal/" + portal + "/subscriptions/" + subscriptionId + "/resume", "");

        assertThat(resume.status()).isEqualTo(303);
        assertThat(stripeClient().v1().subscriptions().retrieve(subscriptionId).getCancelAtPeriodEnd())
                .isFalse();
        assertThat(eventTypesOfCustomerAfter(session.getCustomer(), before))
                .containsExactly("customer.subscription.updated", "customer.subscription.updated");
    }

    @Test
    void shouldNotLetAPortalSessionTouchAnotherCustomersSubscription() throws StripeException {
        Session mine = openCheckout("mine@example.com");
        payAndSubscribe(mine);
        Session theirs = openCheckout("theirs@example.com");
        String theirSubscription = payAndSubscribe(theirs);
        String myPortal = portalFor(mine.getCustomer());
        long mineBefore = settledEventCountAbout(mine.getCustomer());
        long theirsBefore = settledEventCountAbout(theirs.getCustomer());

        Reply cancel = postForm("/sandbox/portal/" + myPortal + "/subscriptions/" + theirSubscription + "/cancel", "");

        assertThat(cancel.status()).isEqualTo(404);
        assertThat(stripeClient()
                        .v1()
                        .subscriptions()
                        .retrieve(theirSubscription)
                        .getCancelAtPeriodEnd())
                .isFalse();
        assertThat(settledEventCountAbout(mine.getCustomer())).isEqualTo(mineBefore);
        assertThat(settledEventCountAbout(theirs.getCustomer())).isEqualTo(theirsBefore);
    }

    @Test
    void shouldRenderTheHostedInvoicePage() throws StripeException {
        String subscriptionId = payAndSubscribe(openCheckout("invoice-page@example.com"));
        String invoiceId =
                stripeClient().v1().subscriptions().retrieve(subscriptionId).getLatestInvoice();
        String url = stripeClient().v1().invoices().retrieve(invoiceId).getHostedInvoiceUrl();

        Reply page = page(url.substring(baseUrl().length()));

        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("id=\"status\">paid<").contains("$20.00");
    }

    private String portalFor(String customer) throws StripeException {
        return stripeClient()
                .v1()
                .billingPortal()
                .sessions()
                .create(SessionCreateParams.builder()
                        .setCustomer(customer)
                        .setReturnUrl(baseUrl() + "/dashboard/billing")
                        .build())
                .getId();
    }
}
