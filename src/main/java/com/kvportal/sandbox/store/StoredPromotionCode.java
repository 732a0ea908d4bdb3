package com.kvportal.sandbox.store;

import java.util.Map;
import lombok.With;
import org.jspecify.annotations.Nullable;

/**
 * A customer-facing code for a coupon; usable while active, before it expires and while redemptions are left. As at
 * Stripe, only {@code active} and {@code metadata} change once it is made ({@code with...}, Lombok's).
 */
public record StoredPromotionCode(
        String id,
        String code,
        String coupon,
        @With boolean active,
        @Nullable Long expiresAt,
        @Nullable Long maxRedemptions,
        long timesRedeemed,
        @With Map<String, String> metadata,
        long created) {

    /** True when a customer can redeem it now (its coupon aside). */
    public boolean redeemable(long now) {
        return active && StoredCoupon.withinLimits(now, expiresAt, maxRedemptions, timesRedeemed);
    }
}
