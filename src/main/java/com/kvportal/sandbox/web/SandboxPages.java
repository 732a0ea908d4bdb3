package com.kvportal.sandbox.web;

import com.kvportal.sandbox.store.SandboxObjects;
import com.kvportal.sandbox.store.StoredCheckoutSession;
import com.kvportal.sandbox.store.StoredCustomer;
import com.kvportal.sandbox.store.StoredInvoice;
import com.kvportal.sandbox.store.StoredPortalSession;
import com.kvportal.sandbox.store.StoredPrice;
import com.kvportal.sandbox.store.StoredSubscription;
import com.kvportal.sandbox.stripe.StripeJson;
import java.time.Clock;
import java.util.List;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;

/** Renders the hosted pages: checkout, the customer portal and an invoice. */
@Component
@RequiredArgsConstructor
public class SandboxPages {

    private final SandboxObjects objects;

    private final Clock clock;

    ResponseEntity<String> checkout(String sessionId, int status, @Nullable String error) {
        StoredCheckoutSession session = objects.checkoutSession(sessionId)
                .map(s -> s.asOf(clock.instant().getEpochSecond()))
                .orElse(null);
        if (session == null) {
            return Html.notFound("checkout session");
        }
        StoredPrice price = objects.price(session.price()).orElseThrow();
        String email = session.customerEmail();
        if (session.customer() != null) {
            email = objects.customer(session.customer())
                    .map(StoredCustomer::email)
                    .orElse(email);
        }
        StringBuilder body = new StringBuilder();
        if (error != null) {
            body.append("<div class=\"error\" id=\"error\" role=\"alert\">")
                    .append(Html.escape(error))
                    .append("</div>");
        }
        body.append("<h1>Subscribe to ").append(Html.escape(price.nickname())).append("</h1>");
        body.append("<div class=\"price\" id=\"amount\">")
                .append(Html.escape(StripeJson.money(price.unitAmount() * session.quantity())))
                .append(" <span class=\"muted\">per ")
                .append(Html.escape(price.interval()))
                .append("</span></div>");
        if (session.quantity() > 1) {
            body.append("<p class=\"muted\">")
                    .append(session.quantity())
                    .append(" × ")
                    .append(Html.escape(StripeJson.money(price.unitAmount())))
                    .append("</p>");
        }
        if (email != null) {
            body.append("<p class=\"muted\">Billed to <span id=\"email\">")
                    .append(Html.escape(email))
                    .append("</span></p>");
        }
        String pay = "/sandbox/checkout/" + session.id() + "/pay";
        if (session.isComplete()) {
            body.append("<div class=\"ok\" id=\"paid\">This checkout session is paid.</div>");
            body.append(Html.link(session.successRedirect(), "continue", "Continue"));
        } else if (!session.status().equals("open")) {
            body.append("<div class=\"error\">This checkout session has expired.</div>");
        } else if (session.needsCountry() || session.allowPromotionCodes()) {
            body.append(payForm(pay, session));
        } else {
            body.append("<p>Test card: nothing is charged. Choose what the card does:</p>");
            body.append(Html.postButton(pay, "pay", "Pay", "primary", "outcome", "succeeded"));
            body.append(Html.postButton(
                    pay, "pay-declined", "Pay with a card that fails", "danger", "outcome", "card_declined"));
        }
        if (session.cancelUrl() != null && !session.isComplete()) {
            body.append("<p>")
                    .append(Html.link(session.cancelUrl(), "go-back", "Go back"))
                    .append("</p>");
        }
        return Html.page(status, "Checkout", body.toString());
    }

    /**
     * One form with what the session asks besides the card: the billing address's country (its tax) and a field for a
     * promotion code; each button sends the card's outcome.
     */
    private static String payForm(String action, StoredCheckoutSession session) {
        StringBuilder form = new StringBuilder("<form method=\"post\" action=\"" + Html.escape(action) + "\">");
        if (session.needsCountry()) {
            form.append("<p><label for=\"country\">Country of the billing address (two letters, e.g. DE)</label>"
                    + " <input id=\"country\" name=\"country\" required maxlength=\"2\" size=\"3\""
                    + " autocomplete=\"country\"></p>");
            form.append("<p class=\"muted\">Sandbox tax rates: DE 19 %, GB 20 %, elsewhere 0 %.</p>");
        }
        if (session.allowPromotionCodes()) {
            form.append("<p><label for=\"promotion-code\">Promotion code</label>"
                    + " <input id=\"promotion-code\" name=\"promotion_code\" maxlength=\"200\"></p>");
        }
        form.append("<p>Test card: nothing is charged. Choose what the card does:</p>");
        form.append("<button type=\"submit\" id=\"pay\" class=\"primary\" name=\"outcome\" value=\"succeeded\">"
                + "Pay</button> ");
        form.append("<button type=\"submit\" id=\"pay-declined\" class=\"danger\" name=\"outcome\""
                + " value=\"card_declined\">Pay with a card that fails</button>");
        return form.append("</form>").toString();
    }

    ResponseEntity<String> portal(String portalSessionId, @Nullable String notice) {
        StoredPortalSession session = objects.portalSession(portalSessionId).orElse(null);
        if (session == null) {
            return Html.notFound("portal session");
        }
        StoredCustomer customer = objects.customer(session.customer()).orElseThrow();
        StringBuilder body = new StringBuilder();
        if (notice != null) {
            body.append("<div class=\"ok\" id=\"notice\" role=\"status\">")
                    .append(Html.escape(notice))
                    .append("</div>");
        }
        body.append("<h1>Your subscription</h1>");
        if (customer.email() != null) {
            body.append("<p class=\"muted\">")
                    .append(Html.escape(customer.email()))
                    .append("</p>");
        }
        List<StoredSubscription> subscriptions = objects.subscriptions(customer.id(), null, 10);
        if (subscriptions.isEmpty()) {
            body.append("<p id=\"no-subscription\">No current subscription.</p>");
        }
        boolean first = true;
        for (StoredSubscription subscription : subscriptions) {
            StoredPrice price = objects.price(subscription.price()).orElseThrow();
            String suffix = first ? "" : "-" + subscription.id();
            String action = "/sandbox/portal/" + session.id() + "/subscriptions/" + subscription.id();
            body.append("<table id=\"subscription")
                    .append(Html.escape(suffix))
                    .append("\"><tr><td>Plan</td><td>")
                    .append(Html.escape(price.nickname()))
                    .append(" · ")
                    .append(Html.escape(StripeJson.money(price.unitAmount() * subscription.quantity())))
                    .append(" per ")
                    .append(Html.escape(price.interval()))
                    .append("</td></tr><tr><td>Status</td><td class=\"status\">")
                    .append(Html.escape(subscription.status()))
                    .append("</td></tr><tr><td>");
            Long cancelAt = subscription.cancelAt();
            if (cancelAt != null) {
                body.append("Cancels on</td><td class=\"period-end\">").append(Html.date(cancelAt));
            } else {
                body.append("Renews on</td><td class=\"period-end\">")
                        .append(Html.date(subscription.currentPeriodEnd()));
            }
            body.append("</td></tr></table>");
            if (subscription.cancelAtPeriodEnd() || cancelAt != null) {
                body.append(Html.postButton(
                        action + "/resume", "resume-subscription" + suffix, "Resume subscription", "primary"));
            } else {
                body.append(Html.postButton(
                        action + "/cancel", "cancel-subscription" + suffix, "Cancel at period end", "danger"));
            }
            first = false;
        }
        if (session.returnUrl() != null) {
            body.append("<p>")
                    .append(Html.link(session.returnUrl(), "return", "Back to the dashboard"))
                    .append("</p>");
        }
        return Html.page(200, "Customer portal", body.toString());
    }

    ResponseEntity<String> invoice(String invoiceId) {
        StoredInvoice invoice = objects.invoice(invoiceId).orElse(null);
        if (invoice == null || invoice.status().equals("draft")) {
            return Html.notFound("invoice");
        }
        String what = invoice.price() == null
                ? "Invoice items"
                : objects.price(invoice.price()).orElseThrow().nickname();
        String body = "<h1>Invoice " + Html.escape(invoice.number()) + "</h1>"
                + "<table><tr><td>Status</td><td id=\"status\">" + Html.escape(invoice.status()) + "</td></tr>"
                + "<tr><td>" + Html.escape(what) + ", " + Html.date(invoice.linePeriodStart()) + " – "
                + Html.date(invoice.linePeriodEnd()) + "</td><td>" + Html.escape(StripeJson.money(invoice.amountDue()))
                + "</td></tr><tr><td>Amount paid</td><td>" + Html.escape(StripeJson.money(invoice.amountPaid()))
                + "</td></tr><tr><td>Amount remaining</td><td id=\"amount-remaining\">"
                + Html.escape(StripeJson.money(invoice.amountDue() - invoice.amountPaid())) + "</td></tr></table>";
        return Html.page(200, "Invoice", body);
    }
}
