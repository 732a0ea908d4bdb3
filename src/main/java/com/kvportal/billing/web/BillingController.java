package com.kvportal.billing.web;

import com.kvportal.billing.Billing;
import com.kvportal.billing.BillingProblem;
import com.kvportal.billing.Invoice;
import com.kvportal.billing.Plan;
import com.kvportal.billing.checkout.Checkouts;
import com.kvportal.billing.checkout.Checkouts.CheckoutRequest;
import com.kvportal.billing.invoice.StoredInvoices;
import com.kvportal.billing.stripe.InvoicePreview;
import com.kvportal.billing.stripe.StripeGateway.CheckoutSession;
import com.kvportal.billing.subscription.PlanChanges;
import com.kvportal.billing.subscription.PlanChanges.ChangeRequest;
import com.kvportal.billing.subscription.Subscription;
import com.kvportal.billing.subscription.Subscriptions;
import com.kvportal.common.web.CommonProblem;
import com.kvportal.security.ApiContract;
import com.kvportal.security.Caller;
import com.kvportal.security.Credential;
import com.kvportal.security.Permission;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/billing")
@Tag(
        name = "Billing",
        description = "Plans, the organization's subscription and invoices, the provider's hosted checkout and"
                + " customer portal, and cancellation at period end.")
@RequiredArgsConstructor
class BillingController {

    private final Billing billing;
    private final Checkouts checkouts;
    private final Subscriptions subscriptions;
    private final PlanChanges planChanges;
    private final StoredInvoices invoices;

    record SubscriptionResponse(Subscription subscription) {}

    record PlanChangeResponse(
            Subscription subscription,
            @Schema(
                            description = "When the new plan takes effect: now for an upgrade (the start of the new"
                                    + " period), the end of the current period for a downgrade (then also in"
                                    + " subscription.scheduled_change).")
                    Instant effectiveAt) {}

    record PortalResponse(
            @Schema(description = "The provider's customer portal session: send the customer's browser there.")
                    String url) {}

    /** The provider's hosted checkout: where to send the customer. */
    record CheckoutResponse(
            @Schema(description = "The provider's checkout session.", example = "cs_test_a1b2c3") String sessionId,
            @Schema(description = "The hosted checkout page: send the customer's browser there.") String url) {}

    record PlanList(@Schema(description = "Every plan, cheapest first.") List<Plan> plans) {}

    record InvoiceList(@Schema(description = "The organization's invoices, newest first.") List<Invoice> invoices) {}

    @ApiContract(credentials = {})
    @GetMapping("/plans")
    PlanList listPlans() {
        return new PlanList(billing.plans());
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.READ)
    @BillingProblem.Codes(BillingProblem.SUBSCRIPTION_NOT_FOUND)
    @GetMapping("/subscription")
    SubscriptionResponse getSubscription(Caller caller) {
        return new SubscriptionResponse(subscriptions.live(caller));
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.READ)
    @GetMapping("/invoices")
    InvoiceList listInvoices(Caller caller) {
        return new InvoiceList(invoices.ofOrganization(caller.organizationId()));
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.MANAGE_BILLING, verifiedEmail = true)
    @BillingProblem.Codes({
        BillingProblem.UNKNOWN_TIER,
        BillingProblem.TIER_NOT_PURCHASABLE,
        BillingProblem.ALREADY_SUBSCRIBED,
        BillingProblem.PROMOTION_CODE_INVALID
    })
    @CommonProblem.Codes(CommonProblem.PAYMENT_PROVIDER_UNAVAILABLE)
    @PostMapping(path = "/checkout", consumes = MediaType.APPLICATION_JSON_VALUE)
    CheckoutResponse startCheckout(Caller caller, @Valid @RequestBody CheckoutRequest request) {
        CheckoutSession session = checkouts.start(caller, request);
        return new CheckoutResponse(session.id(), session.url());
    }

    @ApiContract(
            success = HttpStatus.SEE_OTHER,
            successDescription = "To /dashboard/billing?checkout=success, or ?checkout=pending.",
            credentials = {})
    @CommonProblem.Codes(CommonProblem.PAYMENT_PROVIDER_UNAVAILABLE)
    @GetMapping("/checkout/success")
    ResponseEntity<Void> checkoutSucceeded(
            @RequestParam(name = "session_id", required = false)
                    @Parameter(
                            description = "The provider's checkout session, filled in by the provider.",
                            example = "cs_test_a1b2c3")
                    @Nullable
                    String id) {
        return backToDashboard(checkouts.complete(id) ? "success" : "pending");
    }

    @ApiContract(
            success = HttpStatus.SEE_OTHER,
            successDescription = "To /dashboard/billing?checkout=canceled.",
            credentials = {})
    @GetMapping("/checkout/cancel")
    ResponseEntity<Void> checkoutCanceled() {
        return backToDashboard("canceled");
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.MANAGE_BILLING)
    @BillingProblem.Codes(BillingProblem.NO_BILLING_ACCOUNT)
    @CommonProblem.Codes(CommonProblem.PAYMENT_PROVIDER_UNAVAILABLE)
    @PostMapping("/portal")
    PortalResponse openBillingPortal(Caller caller) {
        return new PortalResponse(subscriptions.portal(caller));
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.MANAGE_BILLING)
    @BillingProblem.Codes(BillingProblem.SUBSCRIPTION_NOT_FOUND)
    @CommonProblem.Codes(CommonProblem.PAYMENT_PROVIDER_UNAVAILABLE)
    @PostMapping("/cancel")
    SubscriptionResponse cancelSubscription(Caller caller) {
        return new SubscriptionResponse(subscriptions.cancel(caller));
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.MANAGE_BILLING)
    @BillingProblem.PlanChangeCodes
    @CommonProblem.Codes(CommonProblem.PAYMENT_PROVIDER_UNAVAILABLE)
    @PostMapping(path = "/change-plan", consumes = MediaType.APPLICATION_JSON_VALUE)
    PlanChangeResponse changePlan(Caller caller, @Valid @RequestBody ChangeRequest request) {
        PlanChanges.Changed changed = planChanges.change(caller, request);
        return new PlanChangeResponse(changed.subscription(), changed.effectiveAt());
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.MANAGE_BILLING)
    @BillingProblem.Codes({BillingProblem.SUBSCRIPTION_NOT_FOUND, BillingProblem.NO_SCHEDULED_CHANGE})
    @CommonProblem.Codes(CommonProblem.PAYMENT_PROVIDER_UNAVAILABLE)
    @DeleteMapping("/change-plan")
    SubscriptionResponse cancelPlanChange(Caller caller) {
        return new SubscriptionResponse(planChanges.cancelScheduled(caller));
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.MANAGE_BILLING)
    @BillingProblem.PlanChangeCodes
    @CommonProblem.Codes(CommonProblem.PAYMENT_PROVIDER_UNAVAILABLE)
    @GetMapping("/change-plan/preview")
    InvoicePreview previewPlanChange(
            Caller caller,
            @RequestParam(name = "tier", required = false)
                    @Parameter(description = "The paid tier to move to.", example = "team")
                    @Nullable
                    String tier) {
        return planChanges.preview(caller, tier);
    }

    private ResponseEntity<Void> backToDashboard(String outcome) {
        return ResponseEntity.status(HttpStatus.SEE_OTHER)
                .location(URI.create(Subscriptions.DASHBOARD_PATH + "?checkout=" + outcome))
                .header("Cache-Control", "no-store")
                .build();
    }
}
