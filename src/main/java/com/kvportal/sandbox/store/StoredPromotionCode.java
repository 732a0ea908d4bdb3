package com.kvportal.sandbox.store;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/** A customer-facing code for a coupon; usable while active, before it expires and while redemptions are left. */
public record StoredPromotionCode(
        String id,
        String code,
        String coupon,
        boolean active,
        @Nullable Long expiresAt,
        @Nullable Long maxRedemptions,
        long timesRedeemed,
        Map<String, String> metadata,
        long created) {

    /** True when a customer can redeem it now (its coupon aside). */
    public boolean redeemable(long now) {
        return active && StoredCoupon.withinLimits(now, expiresAt, maxRedemptions, timesRedeemed);
    }

    public StoredPromotionCode withActive(boolean active, Map<String, String> metadata) {
        return new StoredPromotionCode(
                id, code, coupon, active, expiresAt, maxRedemptions, timesRedeemed, metadata, created);
    }
}
