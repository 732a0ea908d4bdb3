package com.kvportal.billing;

import com.kvportal.common.WireName;
import org.jspecify.annotations.Nullable;

/**
 * A line of an invoice, as the provider's invoice object listed it ({@code lines.data[]}).
 *
 * @param amountCents the line's amount in the invoice's currency
 * @param kind what the line bills
 */
public record InvoiceLine(@Nullable String description, long quantity, long amountCents, Kind kind) {

    /** The metadata key of a line that names its kind; billing's own invoice items set it. */
    public static final String KIND_KEY = "kind";

    /**
     * What a line bills: the storage overage when the line's metadata says so, a plan change's proration (the credit
     * of unused time) when the provider marks it so, the invoice's discount (a negative line of its own), the
     * subscription otherwise.
     */
    public enum Kind implements WireName {
        SUBSCRIPTION,
        STORAGE_OVERAGE,
        PRORATION,
        DISCOUNT;

        /** The kind a provider line's metadata {@code kind} names. */
        public static Kind ofMetadata(@Nullable String value) {
            return STORAGE_OVERAGE.wire().equals(value) ? STORAGE_OVERAGE : SUBSCRIPTION;
        }

        public static Kind ofWire(String value) {
            return WireName.of(Kind.class, value).orElse(SUBSCRIPTION);
        }
    }
}
