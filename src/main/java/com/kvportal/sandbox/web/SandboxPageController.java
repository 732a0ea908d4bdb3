package com.kvportal.sandbox.web;

import com.kvportal.sandbox.store.SandboxObjects;
import com.kvportal.sandbox.store.StoredPortalSession;
import com.kvportal.sandbox.stripe.StripeError;
import com.kvportal.sandbox.stripe.StripeParams;
import com.kvportal.sandbox.subscription.StripeSubscriptions;
import java.util.Map;
import lombok.RequiredArgsConstructor;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** The hosted pages a browser sees: checkout, the customer portal with its buttons, and invoices. */
@RestController
@RequiredArgsConstructor
public class SandboxPageController {

    private final SandboxPages pages;
    private final SandboxObjects objects;
    private final StripeSubscriptions subscriptions;

    @GetMapping("/sandbox/checkout/{sessionId}")
    ResponseEntity<String> checkout(@PathVariable String sessionId) {
        return pages.checkout(sessionId, 200, null);
    }

    @GetMapping("/sandbox/portal/{portalSessionId}")
    ResponseEntity<String> portal(@PathVariable String portalSessionId) {
        return pages.portal(portalSessionId, null);
    }

    @GetMapping("/sandbox/invoices/{invoiceId}")
    ResponseEntity<String> invoice(@PathVariable String invoiceId) {
        return pages.invoice(invoiceId);
    }

    @PostMapping("/sandbox/portal/{portalSessionId}/subscriptions/{subscriptionId}/cancel")
    ResponseEntity<String> cancelAtPeriodEnd(
            @PathVariable String portalSessionId, @PathVariable String subscriptionId) {
        return change(portalSessionId, subscriptionId, Map.of("cancel_at_period_end", new String[] {"true"}));
    }

    @PostMapping("/sandbox/portal/{portalSessionId}/subscriptions/{subscriptionId}/resume")
    ResponseEntity<String> resume(@PathVariable String portalSessionId, @PathVariable String subscriptionId) {
        return change(
                portalSessionId,
                subscriptionId,
                Map.of("cancel_at_period_end", new String[] {"false"}, "cancel_at", new String[] {""}));
    }

    /** A portal session may change only its own customer's subscriptions. */
    private ResponseEntity<String> change(String portalSessionId, String subscriptionId, Map<String, String[]> params) {
        StoredPortalSession session = objects.portalSession(portalSessionId).orElse(null);
        if (session == null) {
            return Html.notFound("portal session");
        }
        boolean own = objects.subscription(subscriptionId)
                .filter(s -> s.customer().equals(session.customer()))
                .isPresent();
        if (!own) {
            return Html.notFound("subscription");
        }
        try {
            subscriptions.update(subscriptionId, StripeParams.of(params));
        } catch (StripeError e) {
            return Html.page(
                    e.status(),
                    "Customer portal",
                    "<div class=\"error\">" + Html.escape(e.getMessage()) + "</div>"
                            + Html.link("/sandbox/portal/" + session.id(), "back", "Back"));
        }
        return ResponseEntity.status(303)
                .header(HttpHeaders.LOCATION, "/sandbox/portal/" + session.id())
                .build();
    }
}
