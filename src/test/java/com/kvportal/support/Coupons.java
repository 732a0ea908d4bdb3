package com.kvportal.support;

import com.stripe.StripeClient;
import com.stripe.exception.StripeException;
import com.stripe.model.Coupon;
import com.stripe.model.PromotionCode;
import com.stripe.param.CouponCreateParams;
import com.stripe.param.PromotionCodeCreateParams;
import java.math.BigDecimal;
import java.util.UUID;
import java.util.function.UnaryOperator;

/** Coupons and their promotion codes, made at the payment provider (the sandbox) through stripe-java. */
public record Coupons(StripeClient stripe) {

    /** A coupon of the terms {@code terms} sets. */
    public Coupon coupon(UnaryOperator<CouponCreateParams.Builder> terms) throws StripeException {
        return stripe.v1()
                .coupons()
                .create(terms.apply(CouponCreateParams.builder()).build());
    }

    public Coupon percentOff(String percent, CouponCreateParams.Duration duration) throws StripeException {
        return coupon(c -> c.setPercentOff(new BigDecimal(percent)).setDuration(duration));
    }

    /** A promotion code {@code code} for the coupon. */
    public PromotionCode promotionCode(Coupon coupon, String code) throws StripeException {
        return stripe.v1()
                .promotionCodes()
                .create(PromotionCodeCreateParams.builder()
                        .setPromotion(PromotionCodeCreateParams.Promotion.builder()
                                .setType(PromotionCodeCreateParams.Promotion.Type.COUPON)
                                .setCoupon(coupon.getId())
                                .build())
                        .setCode(code)
                        .build());
    }

    /** A promotion code {@code code} for a new coupon of {@code percent} % off. */
    public PromotionCode percentOffCode(String percent, CouponCreateParams.Duration duration, String code)
            throws StripeException {
        return promotionCode(percentOff(percent, duration), code);
    }

    /** A code no other test uses: {@code prefix} and eight random letters and digits. */
    public static String uniqueCode(String prefix) {
        return prefix + UUID.randomUUID().toString().substring(0, 8).toUpperCase();
    }
}
