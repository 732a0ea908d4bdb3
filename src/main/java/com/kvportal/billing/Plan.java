package com.kvportal.billing;

import io.swagger.v3.oas.annotations.media.Schema;
import java.util.UUID;

/**
 * A plan: its storage allowance, price, and overage unit and price (both 0 on the free plan), in cents of
 * {@link #CURRENCY}.
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
                long overagePriceCents) {

    /**
     * The currency of every price and bill (ISO 4217, lower case, as the provider writes it): the plans are priced in
     * it, and billing bills in it only.
     */
    public static final String CURRENCY = "usd";
}
