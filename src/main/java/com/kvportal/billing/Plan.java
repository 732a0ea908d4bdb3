package com.kvportal.billing;

import io.swagger.v3.oas.annotations.media.Schema;
import java.util.UUID;

/**
 * A plan: its storage allowance, price, and overage unit and price (both 0 on the free plan), in cents of
 * {@link #CURRENCY}, and the days of trial a first checkout of it starts with (0: none; the free plan never has one).
 */
public record Plan(
        @Schema(description = "Stable across restarts.") UUID id,
        @Schema(example = "Pro") String name,
        Tier tier,
        @Schema(description = "The storage allowance in bytes.", minimum = "0", example = "107374182400")
                long storageBytes,
        @Schema(description = "The monthly price in cents.", minimum = "0", example = "2000") long priceCents,
        @Schema(description = "The overage unit in bytes; 0 on plans without overage.", minimum = "0")
                long overageBytes,
        @Schema(description = "The price of one overage unit in cents; 0 on plans without overage.", minimum = "0")
                long overagePriceCents,
        @Schema(
                        description = "The days of trial that an organization's first paid checkout of this plan starts"
                                + " with; 0 when there is none (always on free).",
                        minimum = "0",
                        maximum = "90")
                int trialDays) {

    /** A plan without trial. */
    public Plan(
            UUID id,
            String name,
            Tier tier,
            long storageBytes,
            long priceCents,
            long overageBytes,
            long overagePriceCents) {
        this(id, name, tier, storageBytes, priceCents, overageBytes, overagePriceCents, 0);
    }

    /** Whether this plan costs more per period than {@code other}: a change to it is an upgrade. */
    public boolean costsMoreThan(Plan other) {
        return priceCents > other.priceCents;
    }

    /**
     * The currency of every price and bill (ISO 4217, lower case, as the provider writes it): the plans are priced in
     * it, and billing bills in it only.
     */
    public static final String CURRENCY = "usd";
}
