package com.kvportal.sandbox.store;

import java.math.BigDecimal;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A coupon: a percentage or an amount off a whole invoice, for one invoice ({@code once}), for the invoices of
 * {@code durationInMonths} months ({@code repeating}) or for every invoice ({@code forever}). As at Stripe, its terms
 * never change once made.
 */
public record StoredCoupon(
        String id,
        @Nullable String name,
        @Nullable BigDecimal percentOff,
        @Nullable Long amountOff,
        @Nullable String currency,
        String duration,
        @Nullable Integer durationInMonths,
        @Nullable Long maxRedemptions,
        @Nullable Long redeemBy,
        long timesRedeemed,
        Map<String, String> metadata,
        long created) {

    /** Stripe's {@code valid}: it can still be redeemed (not past {@code redeem_by}, redemptions left). */
    public boolean valid(long now) {
        return withinLimits(now, redeemBy, maxRedemptions, timesRedeemed);
    }

    /**
     * The limits of a coupon or promotion code, as Stripe keeps them: before {@code until} (null: no end) and fewer
     * than {@code maxRedemptions} redemptions so far (null: no limit).
     */
    static boolean withinLimits(long now, @Nullable Long until, @Nullable Long maxRedemptions, long timesRedeemed) {
        return (until == null || now < until) && (maxRedemptions == null || timesRedeemed < maxRedemptions);
    }

    public boolean once() {
        return duration.equals("once");
    }
}
