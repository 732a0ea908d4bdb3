package com.kvportal.usage;

import com.kvportal.billing.Billing;
import com.kvportal.billing.IdempotencyKeys;
import com.kvportal.billing.InvoiceItem;
import com.kvportal.billing.InvoiceItemRequest;
import com.kvportal.billing.Plan;
import com.kvportal.billing.RenewalInvoiceDrafted;
import com.kvportal.billing.SubscriptionEnded;
import com.kvportal.billing.Tier;
import com.kvportal.usage.StorageModel.Overage;
import com.kvportal.usage.StorageModel.Period;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Bills each period's storage overage through the provider: onto the renewal draft when billing announces one
 * ({@link RenewalInvoiceDrafted}), or on a final invoice when a subscription ends ({@link SubscriptionEnded}).
 * Runs inside billing's transaction: a failure here rolls it back and the provider retries the event. The
 * provider's idempotency key is bound to the invoice, and the billed period is recorded under the invoice's id,
 * so an event delivered again bills nothing new, and samples that arrive later do not change a bill.
 */
@Component
@RequiredArgsConstructor
class OverageBiller {

    private static final Logger log = LoggerFactory.getLogger(OverageBiller.class);
    private static final long GIB = 1L << 30;

    private final StoredSamples samples;
    private final BilledPeriods billed;
    private final StoredLimits limits;
    private final Billing billing;
    private final ApplicationEventPublisher events;

    @EventListener
    void renewalDrafted(RenewalInvoiceDrafted draft) {
        String invoice = draft.providerInvoiceId();
        if (billed.isBilled(invoice)) {
            log.info("Overage of invoice {} was billed before; unchanged", invoice);
            return;
        }
        Period period = new Period(draft.periodStart(), draft.periodEnd());
        Plan plan = plan(draft.tier());
        Overage overage = measure(draft.organizationId(), period, plan);
        InvoiceItem item = null;
        if (overage.units() > 0) {
            item = billing.addInvoiceItem(request(
                    draft.organizationId(),
                    draft.providerCustomerId(),
                    invoice,
                    period,
                    plan,
                    overage,
                    IdempotencyKeys.renewalOverage(invoice)));
        }
        record(draft.organizationId(), invoice, item, period, overage);
    }

    /**
     * Bills the last period, from its start to the moment the subscription ended at the provider
     * ({@link SubscriptionEnded#lastPeriodEnd()}), never the service's clock: a renewal moved by a test clock lies
     * ahead of it, and an event that arrives late must not count storage held after the end. A period of no length
     * or of no units makes no invoice. The idempotency key is bound to the subscription's final period.
     */
    @EventListener
    void subscriptionEnded(SubscriptionEnded ended) {
        Instant end = ended.lastPeriodEnd();
        if (ended.periodStart() == null || end == null) {
            log.warn("Subscription {} ended without a known period: no final overage", ended.subscriptionId());
            return;
        }
        Plan plan = plan(ended.tier());
        if (plan.overageBytes() <= 0) {
            return;
        }
        Period period = new Period(ended.periodStart(), end);
        if (billed.isBilledPeriod(ended.organizationId(), period.start())) {
            log.info("Overage of subscription {}'s last period was billed before", ended.subscriptionId());
            return;
        }
        Overage overage =
                period.seconds() == 0 ? StorageModel.overage(0, plan) : measure(ended.organizationId(), period, plan);
        if (overage.units() == 0) {
            log.info(
                    "Subscription {} ended at {}: no overage in its last period {} - {}",
                    ended.subscriptionId(),
                    ended.endedAt(),
                    period.start(),
                    period.end());
            return;
        }
        String key = IdempotencyKeys.finalOverage(ended.subscriptionId(), period.start(), period.end());
        String invoice = billing.billFinalInvoice(
                ended.providerCustomerId(),
                request(ended.organizationId(), ended.providerCustomerId(), null, period, plan, overage, key));
        record(ended.organizationId(), invoice, null, period, overage);
    }

    /** The period's overage, clamped to the overage cap in force now, when it is billed. */
    private Overage measure(UUID organizationId, Period period, Plan plan) {
        Overage overage = StorageModel.overage(
                period,
                samples.forInterval(organizationId, period.start(), period.end())
                        .values(),
                plan);
        return StorageModel.capped(overage, plan, limits.of(organizationId).overageCapCents());
    }

    private void record(
            UUID organizationId, String invoice, @Nullable InvoiceItem item, Period period, Overage overage) {
        boolean recorded = billed.record(
                organizationId,
                invoice,
                item == null ? null : item.providerInvoiceItemId(),
                period.start(),
                period.end(),
                overage,
                item != null && item.pending());
        if (recorded && overage.units() > 0) {
            log.info(
                    "Storage overage of organization {} for {} - {}: {} units, {} cents on {}",
                    organizationId,
                    period.start(),
                    period.end(),
                    overage.units(),
                    overage.amountCents(),
                    invoice);
            events.publishEvent(new OverageBilled(
                    organizationId, invoice, overage.units(), overage.amountCents(), period.start(), period.end()));
        }
    }

    private Plan plan(Tier tier) {
        return billing.plans().stream()
                .filter(plan -> plan.tier() == tier)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no plan of tier " + tier));
    }

    private static InvoiceItemRequest request(
            UUID organizationId,
            String customer,
            @Nullable String invoice,
            Period period,
            Plan plan,
            Overage overage,
            String idempotencyKey) {
        return new InvoiceItemRequest(
                customer,
                invoice,
                overage.units(),
                plan.overagePriceCents(),
                Plan.CURRENCY,
                description(plan, overage, period),
                period.start(),
                period.end(),
                OverageKey.metadata(organizationId, period.start()),
                idempotencyKey);
    }

    /** {@code Storage overage: 5 × 10 GiB above 100 GiB (2026-11-21 – 2026-12-21)}. */
    static String description(Plan plan, Overage overage, Period period) {
        return "Storage overage: " + overage.units() + " × " + size(plan.overageBytes()) + " above "
                + size(plan.storageBytes()) + " (" + LocalDate.ofInstant(period.start(), ZoneOffset.UTC) + " – "
                + LocalDate.ofInstant(period.end(), ZoneOffset.UTC) + ")";
    }

    private static String size(long bytes) {
        return bytes % GIB == 0 ? bytes / GIB + " GiB" : bytes + " bytes";
    }
}
