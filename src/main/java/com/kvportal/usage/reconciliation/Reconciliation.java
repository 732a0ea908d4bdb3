package com.kvportal.usage.reconciliation;

import com.kvportal.billing.Billing;
import com.kvportal.billing.ProviderInvoiceItem;
import com.kvportal.billing.UsageCharge;
import com.kvportal.billing.ids.ProviderId;
import com.kvportal.common.WireName;
import com.kvportal.usage.overage.BilledPeriods;
import com.kvportal.usage.overage.BilledPeriods.Recorded;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * Compares the billed periods the service recorded with the storage overage items at the provider (metadata
 * {@code organization_id}, {@code period_start}, {@code kind: storage_overage}), for the periods that start in a
 * time range, and lists every difference. A recorded period of n > 0 units expects exactly one item of quantity n
 * and its amount; a period of 0 units expects none. The gauge {@code kvportal.reconciliation.differences} holds
 * the count of the latest run.
 */
@Service
public class Reconciliation {

    private static final Logger log = LoggerFactory.getLogger(Reconciliation.class);

    /** What differs, as a difference names it ({@code missing_at_provider}). */
    enum Kind implements WireName {
        /** The service billed the period, the provider has no item for it: money lost. */
        MISSING_AT_PROVIDER,
        /** An item at the provider that no recorded period accounts for (or a second one): billed twice. */
        EXTRA_AT_PROVIDER,
        /** The item's quantity or amount is not the recorded units and cents. */
        WRONG_AMOUNT
    }

    /**
     * One difference: what the service recorded (units and cents, 0 when it recorded nothing) and what the provider
     * has (quantity and amount, 0 when it has nothing).
     *
     * @param organizationId null when the provider's item names no readable organization
     */
    record Difference(
            String kind,
            @Nullable UUID organizationId,
            @Nullable Instant periodStart,
            @Nullable String providerInvoiceId,
            @Nullable String providerInvoiceItemId,
            long recordedUnits,
            long recordedCents,
            long providerQuantity,
            long providerAmountCents) {}

    /**
     * The outcome of one run over the periods that start in {@code [from, to)}, and the settled invoices created in
     * it whose recorded amounts (subtotal, discount, tax, amount due) differ from the provider's.
     */
    public record Report(
            Instant from,
            Instant to,
            int billedPeriods,
            int providerItems,
            List<Difference> differences,
            List<Billing.InvoiceMismatch> invoiceDifferences) {}

    private final BilledPeriods billed;
    private final Billing billing;
    private final AtomicLong lastDifferences = new AtomicLong();

    Reconciliation(BilledPeriods billed, Billing billing, MeterRegistry meters) {
        this.billed = billed;
        this.billing = billing;
        Gauge.builder("kvportal.reconciliation.differences", lastDifferences, AtomicLong::get)
                .description("Differences between the billed periods and the provider's invoice items, latest run")
                .register(meters);
    }

    /**
     * Reconciles the periods that start in {@code [from, to)}; logs each difference.
     *
     * @throws com.kvportal.billing.stripe.StripeGateway.PaymentProviderUnavailable when the provider fails
     */
    public Report run(Instant from, Instant to) {
        List<Recorded> recorded = billed.startingBetween(from, to);
        List<ProviderInvoiceItem> items = billing.providerInvoiceItems(UsageCharge.ItemKey.KIND);
        Map<UsageCharge.ItemKey, List<ProviderInvoiceItem>> atProvider = new LinkedHashMap<>();
        int inRange = 0;
        for (ProviderInvoiceItem item : items) {
            UsageCharge.ItemKey key = UsageCharge.ItemKey.of(item);
            if (key.periodStart() == null || key.inRange(from, to)) {
                atProvider.computeIfAbsent(key, k -> new ArrayList<>()).add(item);
                inRange++;
            }
        }
        List<Difference> differences = new ArrayList<>();
        for (Recorded period : recorded) {
            List<ProviderInvoiceItem> matching =
                    atProvider.remove(new UsageCharge.ItemKey(period.organizationId(), period.periodStart()));
            compare(period, matching == null ? List.of() : matching, differences);
        }
        atProvider.forEach((key, extra) -> extra.forEach(item -> differences.add(extra(key, item))));
        List<Billing.InvoiceMismatch> invoiceDifferences = billing.invoiceMismatches(from, to);
        lastDifferences.set(differences.size() + invoiceDifferences.size());
        Report report = new Report(from, to, recorded.size(), inRange, List.copyOf(differences), invoiceDifferences);
        for (Difference difference : differences) {
            log.warn("Reconciliation difference: {}", difference);
        }
        for (Billing.InvoiceMismatch mismatch : invoiceDifferences) {
            log.warn("Reconciliation difference of an invoice's amounts: {}", mismatch);
        }
        log.info(
                "Reconciled billed periods starting {} - {}: {} periods, {} provider items, {} differences",
                from,
                to,
                recorded.size(),
                inRange,
                differences.size());
        return report;
    }

    private static void compare(Recorded period, List<ProviderInvoiceItem> items, List<Difference> differences) {
        List<ProviderInvoiceItem> extra = items;
        if (period.overageUnits() > 0) {
            if (items.isEmpty()) {
                differences.add(difference(Kind.MISSING_AT_PROVIDER, period, null));
                return;
            }
            ProviderInvoiceItem item = items.get(0);
            if (item.quantity() != period.overageUnits() || item.amountCents() != period.overageCents()) {
                differences.add(difference(Kind.WRONG_AMOUNT, period, item));
            }
            extra = items.subList(1, items.size());
        }
        extra.forEach(item -> differences.add(difference(Kind.EXTRA_AT_PROVIDER, period, item)));
    }

    private static Difference difference(Kind kind, Recorded period, @Nullable ProviderInvoiceItem item) {
        return new Difference(
                kind.wire(),
                period.organizationId(),
                period.periodStart(),
                item != null && item.providerInvoiceId() != null
                        ? item.providerInvoiceId().value()
                        : period.providerInvoiceId(),
                item == null ? null : item.providerInvoiceItemId().value(),
                period.overageUnits(),
                period.overageCents(),
                item == null ? 0 : item.quantity(),
                item == null ? 0 : item.amountCents());
    }

    private static Difference extra(UsageCharge.ItemKey key, ProviderInvoiceItem item) {
        return new Difference(
                Kind.EXTRA_AT_PROVIDER.wire(),
                key.organizationId(),
                key.periodStart(),
                ProviderId.valueOf(item.providerInvoiceId()),
                item.providerInvoiceItemId().value(),
                0,
                0,
                item.quantity(),
                item.amountCents());
    }
}
