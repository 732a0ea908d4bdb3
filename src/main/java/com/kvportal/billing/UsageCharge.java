package com.kvportal.billing;

import com.kvportal.common.Parsed;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * What usage answers billing for a period ({@link UsageCharges}): the measure and what it costs, in
 * {@link Plan#CURRENCY}.
 *
 * @param averageBytes the storage the period held, averaged over its length
 * @param quantity the units billed (0: nothing to bill)
 * @param unitAmountCents the price of one unit
 * @param amountCents what the units cost: {@code quantity × unitAmountCents}
 * @param description the line's text on the invoice
 */
public record UsageCharge(
        long averageBytes, long quantity, long unitAmountCents, long amountCents, String description) {

    public UsageCharge {
        if (averageBytes < 0 || quantity < 0 || unitAmountCents < 0 || amountCents != quantity * unitAmountCents) {
            throw new IllegalArgumentException("a usage charge of " + quantity + " × " + unitAmountCents + " is not "
                    + amountCents + " (average " + averageBytes + ")");
        }
    }

    /** The same measure with nothing billed: a trial's period bills no overage. */
    public UsageCharge waived() {
        return new UsageCharge(averageBytes, 0, unitAmountCents, 0, description);
    }

    /**
     * What a usage charge's item at the provider bills, as its metadata names it: the organization
     * ({@code organization_id}) and the start of the period ({@code period_start}), with {@code kind: storage_overage}.
     * Billing writes it on every usage charge it bills ({@link UsageCharges}); usage's reconciliation reads it back.
     *
     * @param organizationId null when the item names no readable organization
     * @param periodStart null when the item names no readable period start
     */
    public record ItemKey(@Nullable UUID organizationId, @Nullable Instant periodStart) {

        /** The {@code kind} of an overage item, by which the provider lists them. */
        public static final String KIND = InvoiceLine.Kind.STORAGE_OVERAGE.wire();

        private static final String ORGANIZATION_KEY = "organization_id";
        private static final String PERIOD_START_KEY = "period_start";

        /** The metadata of an item that bills the organization's period starting at {@code periodStart}. */
        public static Map<String, String> metadata(UUID organizationId, Instant periodStart) {
            return Map.of(
                    ORGANIZATION_KEY,
                    organizationId.toString(),
                    PERIOD_START_KEY,
                    periodStart.toString(),
                    InvoiceLine.KIND_KEY,
                    KIND);
        }

        /** What the provider's item bills, as far as its metadata can be read. */
        public static ItemKey of(ProviderInvoiceItem item) {
            return new ItemKey(
                    Parsed.orEmpty(item.metadata().get(ORGANIZATION_KEY), UUID::fromString)
                            .orElse(null),
                    Parsed.orEmpty(item.metadata().get(PERIOD_START_KEY), Instant::parse)
                            .orElse(null));
        }

        public boolean inRange(Instant from, Instant to) {
            return periodStart != null && !periodStart.isBefore(from) && periodStart.isBefore(to);
        }
    }
}
