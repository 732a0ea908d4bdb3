package com.kvportal.billing;

import com.kvportal.billing.ids.ProviderCustomerId;
import com.kvportal.billing.ids.ProviderInvoiceId;
import com.kvportal.billing.ids.ProviderInvoiceItemId;
import com.kvportal.billing.ids.ProviderSubscriptionId;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * What billing tells the other modules, published synchronously inside the transaction that recorded it (a listener
 * runs in that transaction, and its failure rolls the change back): one sealed family, each about an organization.
 */
public sealed interface BillingEvent {

    UUID organizationId();

    /** A customer of the organization started a hosted checkout for the tier. */
    record CheckoutStarted(UUID organizationId, UUID customerId, Tier tier, String sessionId) implements BillingEvent {}

    /** The provider reported an invoice of the organization paid ({@code invoice.paid}, newer than what was known). */
    record InvoicePaid(UUID organizationId, ProviderInvoiceId providerInvoiceId, long amountPaidCents, String currency)
            implements BillingEvent {}

    /** Charging an invoice of the organization failed ({@code invoice.payment_failed}, newer than what was known). */
    record InvoicePaymentFailed(UUID organizationId, ProviderInvoiceId providerInvoiceId, int attemptCount)
            implements BillingEvent {}

    /**
     * The provider drafted the renewal invoice of a subscription ({@code invoice.created}, billing reason
     * {@code subscription_cycle}, status draft): items added to it now are billed with it. Published inside the
     * webhook's transaction, before the webhook answers; a listener that throws makes the provider retry.
     *
     * @param tier the plan of the subscription that the invoice renews
     * @param periodStart the start of the period that ended (the invoice's {@code period_start})
     * @param periodEnd the end of the period that ended (the invoice's {@code period_end})
     */
    record RenewalInvoiceDrafted(
            UUID organizationId,
            ProviderInvoiceId providerInvoiceId,
            ProviderCustomerId providerCustomerId,
            Tier tier,
            Instant periodStart,
            Instant periodEnd)
            implements BillingEvent {}

    /** A subscription was recorded in its trial, which ends at {@code trialEnd}. */
    record SubscriptionTrialStarted(UUID organizationId, UUID subscriptionId, Tier tier, Instant trialEnd)
            implements BillingEvent {}

    /** A subscription started to grant its plan: recorded active or trialing, or turned so from a status that did not. */
    record SubscriptionActivated(UUID organizationId, UUID subscriptionId, Tier tier) implements BillingEvent {}

    /** A subscription was set to end at {@code cancelAt} (it had no end scheduled before). */
    record SubscriptionCancelScheduled(UUID organizationId, UUID subscriptionId, Instant cancelAt)
            implements BillingEvent {}

    /**
     * A second subscription of the organization was completed all the same (an old session paid late, two sessions
     * paid at once, a provider retry); it was canceled at the provider at once and its payments refunded.
     *
     * @param keptSubscriptionId the subscription the organization keeps
     */
    record SubscriptionDuplicateCanceled(
            UUID organizationId,
            UUID subscriptionId,
            UUID keptSubscriptionId,
            ProviderSubscriptionId providerSubscriptionId,
            Tier tier)
            implements BillingEvent {}

    /**
     * A subscription ended (canceled or expired): the organization is on free again.
     *
     * @param tier the plan it had
     * @param periodStart the start of its last period ({@code current_period_start}), when known
     * @param periodEnd the end of its last period as scheduled ({@code current_period_end}), when known
     * @param endedAt when it ended, by the provider's clock: the provider's {@code ended_at} (the period's end for a
     *     cancellation at period end, earlier for an immediate one), or, when the provider's object does not say, the
     *     {@code created} of the provider's news that it ended
     */
    record SubscriptionEnded(
            UUID organizationId,
            UUID subscriptionId,
            ProviderCustomerId providerCustomerId,
            Tier tier,
            @Nullable Instant periodStart,
            @Nullable Instant periodEnd,
            Instant endedAt)
            implements BillingEvent {

        /**
         * The end of the last period as it was served: the moment it ended, never after the period's scheduled end nor
         * before its start. Null when the period's start is unknown.
         */
        public @Nullable Instant lastPeriodEnd() {
            if (periodStart == null) {
                return null;
            }
            Instant end = periodEnd != null && periodEnd.isBefore(endedAt) ? periodEnd : endedAt;
            return end.isBefore(periodStart) ? periodStart : end;
        }
    }

    /**
     * The provider's newer state of a subscription changed its status, plan, period or cancellation and it has not
     * ended (that is {@link SubscriptionEnded}).
     */
    record SubscriptionUpdated(UUID organizationId, UUID subscriptionId, Tier tier, SubscriptionStatus status)
            implements BillingEvent {}

    /**
     * A period's usage charge is on a provider invoice (or, with no units, the renewal invoice of the period carries
     * none): published inside the transaction that records the provider's answer, after the provider made the item.
     *
     * @param providerInvoiceId the invoice that carries it: the renewal draft, or the final invoice of an ended
     *     subscription
     * @param providerInvoiceItemId the provider's item; null when none was made (no units) or it is on a final invoice
     * @param pending true when the item could not join its draft (no longer a draft) and waits for the next invoice
     */
    record UsageChargeBilled(
            UUID organizationId,
            ProviderInvoiceId providerInvoiceId,
            @Nullable ProviderInvoiceItemId providerInvoiceItemId,
            boolean pending,
            Instant periodStart,
            Instant periodEnd,
            UsageCharge charge)
            implements BillingEvent {}

    /**
     * A customer scheduled the subscription to move to a cheaper plan at the end of its current period (a downgrade);
     * it replaces any change scheduled before.
     *
     * @param from the plan it has until then
     * @param to the plan it moves to
     * @param status its status now
     */
    record SubscriptionPlanChangeScheduled(
            UUID organizationId,
            UUID subscriptionId,
            Tier from,
            Tier to,
            Instant effectiveAt,
            SubscriptionStatus status)
            implements BillingEvent {}

    /**
     * The change scheduled for the end of the period was called off (by a customer, by an upgrade, or by a
     * cancellation): the subscription stays on {@code tier}.
     *
     * @param canceled the plan it was to move to
     */
    record SubscriptionPlanChangeCanceled(
            UUID organizationId, UUID subscriptionId, Tier tier, Tier canceled, SubscriptionStatus status)
            implements BillingEvent {}

    /**
     * The provider's newer state of a subscription names another plan: a plan change took effect.
     *
     * @param from the plan it had
     * @param to the plan it has now
     * @param endedPeriodStart the start of the period the change cut short (a change with a new period starting at once);
     *     null when no period ended early (the change came with a renewal, or kept the period)
     * @param endedPeriodEnd the end of that period: the start of the new one, by the provider's clock; null likewise
     */
    record SubscriptionPlanChanged(
            UUID organizationId,
            UUID subscriptionId,
            ProviderCustomerId providerCustomerId,
            Tier from,
            Tier to,
            @Nullable Instant endedPeriodStart,
            @Nullable Instant endedPeriodEnd)
            implements BillingEvent {}
}
