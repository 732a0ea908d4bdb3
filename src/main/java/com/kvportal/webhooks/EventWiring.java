package com.kvportal.webhooks;

import com.kvportal.account.AccountEvent;
import com.kvportal.apikey.ApiKey;
import com.kvportal.apikey.ApiKeyEvent;
import com.kvportal.apikey.ApiKeys;
import com.kvportal.billing.Billing;
import com.kvportal.billing.BillingEvent.InvoicePaid;
import com.kvportal.billing.BillingEvent.InvoicePaymentFailed;
import com.kvportal.billing.BillingEvent.SubscriptionPlanChangeCanceled;
import com.kvportal.billing.BillingEvent.SubscriptionPlanChangeScheduled;
import com.kvportal.billing.BillingEvent.SubscriptionUpdated;
import com.kvportal.billing.SubscriptionStatus;
import com.kvportal.billing.Tier;
import com.kvportal.billing.ids.ProviderInvoiceId;
import com.kvportal.usage.UsageEvent.UsageAlertRaised;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Turns what happens elsewhere into outgoing events. Plain synchronous listeners, as the audit log's: each runs inside
 * the transaction that published the event, so the outgoing event commits with the change or not at all.
 */
@Component
@RequiredArgsConstructor
class EventWiring {

    private final OutgoingEvents outgoing;
    private final ApiKeys apiKeys;
    private final Billing billing;

    /**
     * The key's list item (never the raw key or its digest), read in the transaction of the change, for each key
     * event of a type an endpoint may subscribe to (an update or a roll is none).
     */
    @EventListener
    void key(ApiKeyEvent e) {
        if (EventTypes.KNOWN.contains(e.type())) {
            ApiKey key = apiKeys.listItem(e.keyId()).orElseThrow();
            outgoing.publish(e.organizationId(), e.type(), key);
        }
    }

    @EventListener
    void invoicePaid(InvoicePaid e) {
        invoice(e.organizationId(), e.providerInvoiceId(), "invoice.paid");
    }

    @EventListener
    void paymentFailed(InvoicePaymentFailed e) {
        invoice(e.organizationId(), e.providerInvoiceId(), "invoice.payment_failed");
    }

    /** The invoice as the invoice list shows it, read in the transaction that recorded the provider's news. */
    private void invoice(UUID organizationId, ProviderInvoiceId providerInvoiceId, String type) {
        billing.invoice(organizationId, providerInvoiceId)
                .ifPresent(invoice -> outgoing.publish(organizationId, type, invoice));
    }

    @EventListener
    void subscriptionUpdated(SubscriptionUpdated e) {
        outgoing.publish(
                e.organizationId(), "subscription.updated", subscription(e.subscriptionId(), e.tier(), e.status()));
    }

    /** A downgrade scheduled: {@code subscription.updated} with the change it waits for. */
    @EventListener
    void planChangeScheduled(SubscriptionPlanChangeScheduled e) {
        Map<String, Object> data = subscription(e.subscriptionId(), e.from(), e.status());
        Map<String, Object> change = new LinkedHashMap<>();
        change.put("tier", e.to().wire());
        change.put("effective_at", e.effectiveAt());
        data.put("scheduled_change", change);
        outgoing.publish(e.organizationId(), "subscription.updated", data);
    }

    /** A scheduled downgrade called off: {@code subscription.updated} without a scheduled change. */
    @EventListener
    void planChangeCanceled(SubscriptionPlanChangeCanceled e) {
        Map<String, Object> data = subscription(e.subscriptionId(), e.tier(), e.status());
        data.put("scheduled_change", null);
        outgoing.publish(e.organizationId(), "subscription.updated", data);
    }

    private static Map<String, Object> subscription(UUID id, Tier tier, SubscriptionStatus status) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("id", id);
        data.put("tier", tier.wire());
        data.put("status", status.wire());
        return data;
    }

    /** The alert's data as its audit line has it: {@code {threshold_percent, used_bytes}}, {@code {reason, ...}}. */
    @EventListener
    void usageAlert(UsageAlertRaised e) {
        outgoing.publish(e.organizationId(), e.type(), e.data());
    }

    @EventListener
    void memberJoined(AccountEvent.MemberJoined e) {
        member(e.organizationId(), "member.joined", e.customerId(), e.email(), e.role(), null);
    }

    @EventListener
    void memberRemoved(AccountEvent.MemberRemoved e) {
        member(e.organizationId(), "member.removed", e.customerId(), e.email(), e.role(), "removed");
    }

    @EventListener
    void memberLeft(AccountEvent.MemberLeft e) {
        member(e.organizationId(), "member.removed", e.customerId(), e.email(), e.role(), "left");
    }

    /** The member as the members list shows it; a removal says how it came ({@code removed} or {@code left}). */
    private void member(
            UUID organizationId, String type, UUID customerId, String email, String role, @Nullable String how) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("customer_id", customerId);
        data.put("email", email);
        data.put("role", role);
        if (how != null) {
            data.put("how", how);
        }
        outgoing.publish(organizationId, type, data);
    }
}
