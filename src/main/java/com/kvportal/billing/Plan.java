package com.kvportal.billing;

import java.util.UUID;

/** A plan: its storage allowance, price, and overage unit and price (both 0 on the free plan). */
public record Plan(
        UUID id,
        String name,
        Tier tier,
        long storageBytes,
        long priceCents,
        long overageBytes,
        long overagePriceCents) {}
