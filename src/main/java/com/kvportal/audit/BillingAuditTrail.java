package com.kvportal.audit;

import com.kvportal.audit.AuditEvent.Party;
import com.kvportal.billing.CheckoutStarted;
import com.kvportal.billing.InvoicePaid;
import com.kvportal.billing.InvoicePaymentFailed;
import com.kvportal.billing.SubscriptionActivated;
import com.kvportal.billing.SubscriptionCancelScheduled;
import com.kvportal.billing.SubscriptionDuplicateCanceled;
import com.kvportal.billing.SubscriptionEnded;
import com.kvportal.billing.SubscriptionUpdated;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Turns billing's events into audit lines, inside the transaction that published them. A change made by a
 * signed-in caller (checkout, cancel) is theirs; a change the payment provider's webhook drove has the actor
 * {@code provider}.
 */
@Component
@RequiredArgsConstructor
class BillingAuditTrail {

    private final AuditLog audit;

    @EventListener
    void checkoutStarted(CheckoutStarted e) {
        audit.record(
                e.organizationId(),
                "billing.checkout_started",
                audit.actorOr(audit.customer(e.customerId())),
                new Party("checkout_session", e.sessionId(), e.tier().wire()),
                null,
                Map.of("tier", e.tier().wire()));
    }

    @EventListener
    void activated(SubscriptionActivated e) {
        subscription(
                e.organizationId(),
                "subscription.activated",
                e.subscriptionId(),
                e.tier().wire(),
                Map.of("tier", e.tier().wire()));
    }

    @EventListener
    void updated(SubscriptionUpdated e) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("tier", e.tier().wire());
        details.put("status", e.status().wire());
        subscription(
                e.organizationId(),
                "subscription.updated",
                e.subscriptionId(),
                e.tier().wire(),
                details);
    }

    @EventListener
    void cancelScheduled(SubscriptionCancelScheduled e) {
        subscription(
                e.organizationId(),
                "subscription.cancel_scheduled",
                e.subscriptionId(),
                null,
                Map.of("cancel_at", e.cancelAt()));
    }

    @EventListener
    void ended(SubscriptionEnded e) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("tier", e.tier().wire());
        if (e.periodEnd() != null) {
            details.put("period_end", e.periodEnd());
        }
        subscription(
                e.organizationId(),
                "subscription.ended",
                e.subscriptionId(),
                e.tier().wire(),
                details);
    }

    @EventListener
    void duplicateCanceled(SubscriptionDuplicateCanceled e) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("tier", e.tier().wire());
        details.put("provider_subscription_id", e.providerSubscriptionId());
        details.put("kept_subscription_id", e.keptSubscriptionId().toString());
        subscription(
                e.organizationId(),
                "subscription.duplicate_canceled",
                e.subscriptionId(),
                e.tier().wire(),
                details);
    }

    @EventListener
    void invoicePaid(InvoicePaid e) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("amount_paid_cents", e.amountPaidCents());
        details.put("currency", e.currency());
        invoice(e.organizationId(), "invoice.paid", e.providerInvoiceId(), details);
    }

    @EventListener
    void paymentFailed(InvoicePaymentFailed e) {
        invoice(
                e.organizationId(),
                "invoice.payment_failed",
                e.providerInvoiceId(),
                Map.of("attempt_count", e.attemptCount()));
    }

    private void subscription(
            UUID organizationId,
            String action,
            UUID subscriptionId,
            @Nullable String tier,
            Map<String, Object> details) {
        audit.record(
                organizationId,
                action,
                audit.actorOr(AuditLog.PROVIDER),
                new Party("subscription", subscriptionId.toString(), tier),
                null,
                details);
    }

    private void invoice(UUID organizationId, String action, String providerInvoiceId, Map<String, Object> details) {
        audit.record(
                organizationId,
                action,
                audit.actorOr(AuditLog.PROVIDER),
                new Party("invoice", providerInvoiceId, providerInvoiceId),
                null,
                details);
    }
}
