package com.kvportal.sandbox.stripe;

import com.kvportal.sandbox.store.StoredCoupon;
import com.kvportal.sandbox.store.StoredDiscount;
import com.kvportal.sandbox.store.StoredPromotionCode;
import com.stripe.model.Coupon;
import com.stripe.model.Discount;
import com.stripe.model.PromotionCode;
import java.util.Map;

/**
 * Renders coupons, promotion codes and discounts as stripe-java's model objects, in Stripe's shapes: the stored
 * records carry Stripe's field names ({@link StripeJson#model}).
 */
public final class StripeDiscountJson {

    private StripeDiscountJson() {}

    public static Coupon coupon(StoredCoupon c, long now) {
        return StripeJson.model(Coupon.class, "coupon", c, Map.of("valid", c.valid(now)));
    }

    public static PromotionCode promotionCode(StoredPromotionCode p) {
        return StripeJson.model(
                PromotionCode.class,
                "promotion_code",
                p,
                Map.of(
                        "promotion", Map.of("type", "coupon", "coupon", p.coupon()),
                        "restrictions", Map.of("first_time_transaction", false, "currency_options", Map.of())));
    }

    public static Discount discount(StoredDiscount d) {
        return StripeJson.model(
                Discount.class, "discount", d, Map.of("source", Map.of("type", "coupon", "coupon", d.coupon())));
    }
}
