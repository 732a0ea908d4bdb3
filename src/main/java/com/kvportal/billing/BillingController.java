package com.kvportal.billing;

import com.kvportal.billing.Checkouts.CheckoutRequest;
import com.kvportal.billing.stripe.StripeGateway.CheckoutSession;
import com.kvportal.security.Caller;
import jakarta.validation.Valid;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/billing")
class BillingController {

    private final Billing billing;
    private final Checkouts checkouts;
    private final Subscriptions subscriptions;

    BillingController(Billing billing, Checkouts checkouts, Subscriptions subscriptions) {
        this.billing = billing;
        this.checkouts = checkouts;
        this.subscriptions = subscriptions;
    }

    record SubscriptionResponse(Subscription subscription) {}

    record PortalResponse(String url) {}

    /** The provider's hosted checkout: where to send the customer. */
    record CheckoutResponse(String sessionId, String url) {}

    @GetMapping("/plans")
    Map<String, List<Plan>> plans() {
        return Map.of("plans", billing.plans());
    }

    @GetMapping("/subscription")
    SubscriptionResponse subscription(Caller caller) {
        return new SubscriptionResponse(subscriptions.live(caller));
    }

    @GetMapping("/invoices")
    Map<String, List<Invoice>> invoices(Caller caller) {
        return Map.of("invoices", subscriptions.invoices(caller));
    }

    @PostMapping(path = "/checkout", consumes = MediaType.APPLICATION_JSON_VALUE)
    CheckoutResponse checkout(Caller caller, @Valid @RequestBody CheckoutRequest request) {
        CheckoutSession session = checkouts.start(caller, request);
        return new CheckoutResponse(session.id(), session.url());
    }

    @GetMapping("/checkout/success")
    ResponseEntity<Void> checkoutSucceeded(@RequestParam(name = "session_id", required = false) @Nullable String id) {
        return backToDashboard(checkouts.complete(id) ? "success" : "pending");
    }

    @GetMapping("/checkout/cancel")
    ResponseEntity<Void> checkoutCanceled() {
        return backToDashboard("canceled");
    }

    @PostMapping("/portal")
    PortalResponse portal(Caller caller) {
        return new PortalResponse(subscriptions.portal(caller));
    }

    @PostMapping("/cancel")
    SubscriptionResponse cancel(Caller caller) {
        return new SubscriptionResponse(subscriptions.cancel(caller));
    }

    private ResponseEntity<Void> backToDashboard(String outcome) {
        return ResponseEntity.status(HttpStatus.SEE_OTHER)
                .location(URI.create(Subscriptions.DASHBOARD_PATH + "?checkout=" + outcome))
                .header("Cache-Control", "no-store")
                .build();
    }
}
