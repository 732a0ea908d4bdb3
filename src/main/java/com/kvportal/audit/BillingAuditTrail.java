package com.kvportal.audit;

import static com.kvportal.audit.AuditLog.details;

import com.kvportal.audit.AuditEvent.Party;
import com.kvportal.billing.BillingEvent.CheckoutStarted;
import com.kvportal.billing.BillingEvent.InvoicePaid;
import com.kvportal.billing.BillingEvent.InvoicePaymentFailed;
import com.kvportal.billing.BillingEvent.SubscriptionActivated;
import com.kvportal.billing.BillingEvent.SubscriptionCancelScheduled;
import com.kvportal.billing.BillingEvent.SubscriptionDuplicateCanceled;
import com.kvportal.billing.BillingEvent.SubscriptionEnded;
import com.kvportal.billing.BillingEvent.SubscriptionPlanChangeCanceled;
import com.kvportal.billing.BillingEvent.SubscriptionPlanChangeScheduled;
import com.kvportal.billing.BillingEvent.SubscriptionPlanChanged;
import com.kvportal.billing.BillingEvent.SubscriptionTrialStarted;
import com.kvportal.billing.BillingEvent.SubscriptionUpdated;
import com.kvportal.billing.Tier;
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
        Map<String, Object> details = Map.of("tier", e.tier().wire());
        byProvider(e.organizationId(), "subscription.activated", subscription(e.subscriptionId(), e.tier()), details);
    }

    @EventListener
    void trialStarted(SubscriptionTrialStarted e) {
        Map<String, Object> details = details("tier", e.tier().wire(), "trial_end", e.trialEnd());
        byProvider(
                e.organizationId(), "subscription.trial_started", subscription(e.subscriptionId(), e.tier()), details);
    }

    @EventListener
    void updated(SubscriptionUpdated e) {
        Map<String, Object> details =
                details("tier", e.tier().wire(), "status", e.status().wire());
        byProvider(e.organizationId(), "subscription.updated", subscription(e.subscriptionId(), e.tier()), details);
    }

    @EventListener
    void cancelScheduled(SubscriptionCancelScheduled e) {
        Map<String, Object> details = Map.of("cancel_at", e.cancelAt());
        byProvider(
                e.organizationId(), "subscription.cancel_scheduled", subscription(e.subscriptionId(), null), details);
    }

    @EventListener
    void planChanged(SubscriptionPlanChanged e) {
        Map<String, Object> details = details("from", e.from().wire(), "tier", e.to().wire());
        byProvider(e.organizationId(), "subscription.plan_changed", subscription(e.subscriptionId(), e.to()), details);
    }

    @EventListener
    void planChangeScheduled(SubscriptionPlanChangeScheduled e) {
        Map<String, Object> details =
                details("from", e.from().wire(), "tier", e.to().wire(), "effective_at", e.effectiveAt());
        Party subscription = subscription(e.subscriptionId(), e.from());
        byProvider(e.organizationId(), "subscription.plan_change_scheduled", subscription, details);
    }

    @EventListener
    void planChangeCanceled(SubscriptionPlanChangeCanceled e) {
        Map<String, Object> details =
                details("tier", e.tier().wire(), "canceled_tier", e.canceled().wire());
        Party subscription = subscription(e.subscriptionId(), e.tier());
        byProvider(e.organizationId(), "subscription.plan_change_canceled", subscription, details);
    }

    @EventListener
    void ended(SubscriptionEnded e) {
        Map<String, Object> details = details("tier", e.tier().wire());
        if (e.periodEnd() != null) {
            details.put("period_end", e.periodEnd());
        }
        byProvider(e.organizationId(), "subscription.ended", subscription(e.subscriptionId(), e.tier()), details);
    }

    @EventListener
    void duplicateCanceled(SubscriptionDuplicateCanceled e) {
        Map<String, Object> details = details("tier", e.tier().wire());
        details.put("provider_subscription_id", e.providerSubscriptionId().value());
        details.put("kept_subscription_id", e.keptSubscriptionId().toString());
        Party subscription = subscription(e.subscriptionId(), e.tier());
        byProvider(e.organizationId(), "subscription.duplicate_canceled", subscription, details);
    }

    @EventListener
    void invoicePaid(InvoicePaid e) {
        Map<String, Object> details = details("amount_paid_cents", e.amountPaidCents(), "currency", e.currency());
        byProvider(
                e.organizationId(),
                "invoice.paid",
                invoice(e.providerInvoiceId().value()),
                details);
    }

    @EventListener
    void paymentFailed(InvoicePaymentFailed e) {
        Map<String, Object> details = Map.of("attempt_count", e.attemptCount());
        byProvider(
                e.organizationId(),
                "invoice.payment_failed",
                invoice(e.providerInvoiceId().value()),
                details);
    }

    /** A change the provider's webhook drove, or the caller's own (e.g. a cancellation). */
    private void byProvider(UUID organizationId, String action, Party target, Map<String, Object> details) {
        audit.record(organizationId, action, audit.actorOr(AuditLog.PROVIDER), target, null, details);
    }

    private static Party subscription(UUID id, @Nullable Tier tier) {
        return Party.of("subscription", id, tier == null ? null : tier.wire());
    }

    private static Party invoice(String providerInvoiceId) {
        return new Party("invoice", providerInvoiceId, providerInvoiceId);
    }
}
