package com.kvportal.billing.invoice;

import com.kvportal.billing.Plan;
import com.kvportal.billing.SubscriptionEnded;
import com.kvportal.billing.SubscriptionPlanChanged;
import com.kvportal.billing.Tier;
import com.kvportal.billing.UsageCharge;
import com.kvportal.billing.UsageCharges;
import com.kvportal.billing.invoice.UsageChargeOutbox.Queued;
import com.kvportal.billing.stripe.ProviderIdempotencyKeys;
import com.kvportal.billing.subscription.Plans;
import java.time.Instant;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
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
 * <p>A renewal's charge is sent to the provider inside that transaction, before the news is answered: the provider
 * finalizes the draft as soon as its news is answered 2xx, so a charge sent later would miss it. A failed call rolls
 * the news back, and the provider delivers it again while the draft waits. A final invoice has no such deadline: its
 * charge is sent by {@link UsageChargeSender} once the transaction commits, and retried until it is.
 */
@Component
@Transactional(propagation = Propagation.MANDATORY)
@RequiredArgsConstructor
public class UsageInvoicing {

    private static final Logger log = LoggerFactory.getLogger(UsageInvoicing.class);

    private final UsageChargeOutbox outbox;
    private final UsageCharges usage;
    private final Plans plans;
    private final UsageChargeSender sender;

    /**
     * The provider drafted the renewal invoice of the period {@code [start, end)} (on plan {@code tier}): its usage
     * charge joins it before this answers, even one of no units (usage lists the period with the invoice). A charge
     * queued by an earlier delivery of the news that was not sent (the instance died after its commit) is sent now.
     *
     * @throws com.kvportal.billing.stripe.StripeGateway.PaymentProviderUnavailable when the provider fails: the news
     *     is rolled back and delivered again
     */
    public void renewalDrafted(
            UUID organizationId,
            String providerInvoiceId,
            String providerCustomerId,
            Tier tier,
            Instant start,
            Instant end) {
        String key = ProviderIdempotencyKeys.renewalOverage(providerInvoiceId);
        if (outbox.contains(key)) {
            log.info("Usage of invoice {} was queued before; sent now unless it was", providerInvoiceId);
        } else {
            UsageCharge charge = usage.chargeOf(organizationId, plans.byTier(tier), start, end);
            outbox.queue(new Queued(
                    UUID.randomUUID(), organizationId, key, providerCustomerId, providerInvoiceId, start, end, charge));
        }
        sender.sendInThisTransaction(key);
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
            String providerCustomerId,
            Tier tier,
            Instant start,
            Instant end) {
        Plan plan = plans.byTier(tier);
        if (plan.overageBytes() <= 0) {
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
