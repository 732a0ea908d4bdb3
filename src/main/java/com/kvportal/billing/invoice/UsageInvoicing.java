package com.kvportal.billing.invoice;

import com.kvportal.billing.BillingEvent.SubscriptionEnded;
import com.kvportal.billing.BillingEvent.SubscriptionPlanChanged;
import com.kvportal.billing.Plan;
import com.kvportal.billing.Tier;
import com.kvportal.billing.UsageCharge;
import com.kvportal.billing.UsageCharges;
import com.kvportal.billing.ids.ProviderCustomerId;
import com.kvportal.billing.ids.ProviderInvoiceId;
import com.kvportal.billing.ids.ProviderSubscriptionId;
import com.kvportal.billing.invoice.UsageChargeOutbox.Queued;
import com.kvportal.billing.stripe.ProviderIdempotencyKeys;
import com.kvportal.billing.subscription.Plans;
import com.kvportal.billing.subscription.StoredSubscriptions;
import com.kvportal.common.database.InCallersTransaction;
import java.time.Instant;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Bills each period's usage on the invoice billing owns: onto the renewal draft when the provider drafts one, or on a
 * final invoice when a subscription ends. It asks usage for the period's charge ({@link UsageCharges}), and queues it
 * in the transaction of the news under its idempotency key (bound to the invoice, or to the ended subscription's
 * last period), so that news delivered again bills nothing new and samples that arrive later do not change a bill.
 *
 * <p>The provider is called once that transaction commits, never inside it. A renewal's charge must be on the draft
 * before the news is answered (the provider finalizes the draft once its news is answered 2xx), so the news is
 * answered only after {@link #sendRenewalCharge} sent it; a failure answers 5xx and the provider delivers the news
 * again while the draft waits (the charge is sent then, by its idempotency key). A final invoice has no such
 * deadline: its charge is sent after commit by {@link UsageChargeSender}, and retried until it is.
 */
@InCallersTransaction
@RequiredArgsConstructor
public class UsageInvoicing {

    private static final Logger log = LoggerFactory.getLogger(UsageInvoicing.class);

    private final UsageChargeOutbox outbox;
    private final UsageCharges usage;
    private final Plans plans;
    private final UsageChargeSender sender;
    private final StoredSubscriptions subscriptions;

    /**
     * The provider drafted the renewal invoice of the period {@code [start, end)} (on plan {@code tier}): its usage
     * charge is queued for it, even one of no units (usage lists the period with the invoice); a trial's period bills
     * none (its units are waived). The caller sends it with {@link #sendRenewalCharge} after commit, before it
     * answers the news.
     */
    public void renewalDrafted(
            UUID organizationId,
            ProviderInvoiceId providerInvoiceId,
            ProviderCustomerId providerCustomerId,
            @Nullable ProviderSubscriptionId subscription,
            Tier tier,
            Instant start,
            Instant end) {
        String key = ProviderIdempotencyKeys.renewalOverage(providerInvoiceId);
        if (outbox.contains(key)) {
            log.info("Usage of invoice {} was queued before; unchanged", providerInvoiceId);
            return;
        }
        UsageCharge charge = usage.chargeOf(organizationId, plans.byTier(tier), start, end);
        if (subscription != null && subscriptions.trialCovered(subscription, end)) {
            log.info("Invoice {} follows a trial: no overage for {} - {}", providerInvoiceId, start, end);
            charge = charge.waived();
        }
        outbox.queue(new Queued(
                UUID.randomUUID(), organizationId, key, providerCustomerId, providerInvoiceId, start, end, charge));
    }

    /**
     * Sends the usage charge queued for the renewal draft {@code providerInvoiceId} unless it was sent (or none was
     * queued); called outside any transaction, after the news of the draft was applied or found applied already.
     *
     * @throws com.kvportal.billing.stripe.StripeGateway.PaymentProviderUnavailable when the provider fails; the charge
     *     stays queued
     */
    @Transactional(propagation = Propagation.NEVER)
    public void sendRenewalCharge(ProviderInvoiceId providerInvoiceId) {
        sender.send(ProviderIdempotencyKeys.renewalOverage(providerInvoiceId));
    }

    /**
     * Bills the last period, from its start to the moment the subscription ended at the provider
     * ({@link SubscriptionEnded#lastPeriodEnd()}), never the service's clock: a renewal moved by a test clock lies
     * ahead of it, and an event that arrives late must not count storage held after the end. A period of no length
     * or of no units makes no invoice.
     */
    @EventListener
    void subscriptionEnded(SubscriptionEnded ended) {
        Instant start = ended.periodStart();
        Instant end = ended.lastPeriodEnd();
        if (start == null || end == null) {
            log.warn("Subscription {} ended without a known period: no final usage charge", ended.subscriptionId());
            return;
        }
        billEndedPeriod(
                ended.organizationId(), ended.subscriptionId(), ended.providerCustomerId(), ended.tier(), start, end);
    }

    /**
     * An upgrade started a new period at once: the period it cut short is billed on the old plan as any period that
     * ended, on an invoice of its own (the provider finalized the change's invoice at once), under the same key as a
     * last period's, so the news of the change applied twice bills it once.
     */
    @EventListener
    void planChanged(SubscriptionPlanChanged changed) {
        Instant start = changed.endedPeriodStart();
        Instant end = changed.endedPeriodEnd();
        if (start != null && end != null) {
            billEndedPeriod(
                    changed.organizationId(),
                    changed.subscriptionId(),
                    changed.providerCustomerId(),
                    changed.from(),
                    start,
                    end);
        }
    }

    private void billEndedPeriod(
            UUID organizationId,
            UUID subscriptionId,
            ProviderCustomerId providerCustomerId,
            Tier tier,
            Instant start,
            Instant end) {
        Plan plan = plans.byTier(tier);
        if (plan.overageBytes() <= 0) {
            return;
        }
        if (subscriptions.trialCovered(subscriptionId, end)) {
            log.info("Subscription {}: no overage for its trial {} - {}", subscriptionId, start, end);
            return;
        }
        if (outbox.containsPeriod(organizationId, start)) {
            log.info("Usage of subscription {}'s period from {} was billed before", subscriptionId, start);
            return;
        }
        UsageCharge charge = end.isAfter(start) ? usage.chargeOf(organizationId, plan, start, end) : null;
        if (charge == null || charge.quantity() == 0) {
            log.info("Subscription {}: no usage charge in its period {} - {}", subscriptionId, start, end);
            return;
        }
        String key = ProviderIdempotencyKeys.finalOverage(subscriptionId, start, end);
        queueAndSendAfterCommit(
                new Queued(UUID.randomUUID(), organizationId, key, providerCustomerId, null, start, end, charge));
    }

    /** Queues the charge in this transaction, and sends it once the transaction commits. */
    private void queueAndSendAfterCommit(Queued charge) {
        if (!outbox.queue(charge)) {
            return;
        }
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                sender.trySend(charge.id());
            }
        });
    }
}
