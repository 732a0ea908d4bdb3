package com.kvportal.billing.stripe;

import com.kvportal.billing.ids.ProviderInvoiceId;
import com.kvportal.billing.ids.ProviderSubscriptionId;
import java.time.Instant;
import java.util.UUID;

/**
 * Every idempotency key billing sends the payment provider, built here only: the same thing to bill or create has
 * the same key, however often and from wherever it is sent (a retried event, another instance). The keys must never
 * change for the same thing: a changed key would bill it again.
 */
public final class ProviderIdempotencyKeys {

    private ProviderIdempotencyKeys() {}

    /** The storage overage item of a renewal draft invoice: at most one per invoice, ever. */
    public static String renewalOverage(ProviderInvoiceId providerInvoiceId) {
        return "overage:" + providerInvoiceId;
    }

    /** The overage of an ended subscription's last period, {@code [start, end)}, on its final invoice. */
    public static String finalOverage(UUID subscriptionId, Instant start, Instant end) {
        return "overage-final:" + subscriptionId + ":" + start.getEpochSecond() + "-" + end.getEpochSecond();
    }

    /**
     * An upgrade of a subscription's period to a price: a request repeated in the same period changes it once (the
     * provider answers the first result again).
     */
    public static String planChange(
            ProviderSubscriptionId providerSubscriptionId, Instant periodStart, String priceId) {
        return "plan-change:" + providerSubscriptionId + ":" + periodStart.getEpochSecond() + ":" + priceId;
    }

    /** The organization's one customer at the provider. */
    public static String customer(UUID organizationId) {
        return "kv-portal-customer-" + organizationId;
    }

    /** The refund of a duplicate subscription's payment: a repeat refunds nothing more. */
    public static String duplicateRefund(String paymentIntent) {
        return "kv-portal-duplicate-refund-" + paymentIntent;
    }

    /** The same item made pending (no invoice) after its invoice was no longer a draft. */
    public static String pending(String itemKey) {
        return itemKey + ":pending";
    }

    /** The invoice of a customer's pending items, made for the item of {@code itemKey}. */
    public static String invoiceOfPending(String itemKey) {
        return itemKey + ":invoice";
    }

    /** The finalization of the invoice made for the item of {@code itemKey}. */
    public static String finalization(String itemKey) {
        return itemKey + ":finalize";
    }
}
