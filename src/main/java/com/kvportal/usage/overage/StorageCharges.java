package com.kvportal.usage.overage;

import com.kvportal.billing.BillingEvent.UsageChargeBilled;
import com.kvportal.billing.Plan;
import com.kvportal.billing.UsageCharge;
import com.kvportal.billing.UsageCharges;
import com.kvportal.billing.ids.ProviderId;
import com.kvportal.usage.UsageEvent.OverageBilled;
import com.kvportal.usage.limits.StoredLimits;
import com.kvportal.usage.reporting.StorageModel;
import com.kvportal.usage.reporting.StorageModel.Overage;
import com.kvportal.usage.reporting.StorageModel.Period;
import com.kvportal.usage.reporting.StoredSamples;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Usage's answer to billing's one question ({@link UsageCharges}): a period's storage overage, measured from the
 * samples and clamped to the customer's overage cap in force when it is billed. Billing owns the invoice, its items
 * and their idempotency keys; once its item is at the provider ({@link UsageChargeBilled}), the period is recorded
 * as billed (what {@code GET /api/v1/usage/periods} lists and the reconciliation compares) and {@link OverageBilled}
 * is published, in that transaction.
 */
@Component
@RequiredArgsConstructor
public class StorageCharges implements UsageCharges {

    private static final Logger log = LoggerFactory.getLogger(StorageCharges.class);
    private static final long GIB = 1L << 30;

    private final StoredSamples samples;
    private final BilledPeriods billed;
    private final StoredLimits limits;
    private final ApplicationEventPublisher events;

    @Override
    public UsageCharge chargeOf(UUID organizationId, Plan plan, Instant start, Instant end) {
        Period period = new Period(start, end);
        Overage overage = StorageModel.overage(
                period, samples.forInterval(organizationId, start, end).values(), plan);
        Overage capped =
                StorageModel.capped(overage, plan, limits.of(organizationId).overageCapCents());
        return new UsageCharge(
                capped.averageBytes(),
                capped.units(),
                plan.overagePriceCents(),
                capped.amountCents(),
                description(plan, capped, period));
    }

    @EventListener
    void billed(UsageChargeBilled billed) {
        UsageCharge charge = billed.charge();
        Overage overage = new Overage(charge.averageBytes(), charge.quantity(), charge.amountCents());
        boolean recorded = this.billed.record(
                billed.organizationId(),
                billed.providerInvoiceId().value(),
                ProviderId.valueOf(billed.providerInvoiceItemId()),
                billed.periodStart(),
                billed.periodEnd(),
                overage,
                billed.pending());
        if (recorded && overage.units() > 0) {
            log.info(
                    "Storage overage of organization {} for {} - {}: {} units, {} cents on {}",
                    billed.organizationId(),
                    billed.periodStart(),
                    billed.periodEnd(),
                    overage.units(),
                    overage.amountCents(),
                    billed.providerInvoiceId());
            events.publishEvent(new OverageBilled(
                    billed.organizationId(),
                    billed.providerInvoiceId().value(),
                    overage.units(),
                    overage.amountCents(),
                    billed.periodStart(),
                    billed.periodEnd()));
        }
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
