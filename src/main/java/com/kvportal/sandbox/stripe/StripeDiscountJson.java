package com.kvportal.sandbox.stripe;

import com.kvportal.sandbox.store.StoredCoupon;
import com.kvportal.sandbox.store.StoredDiscount;
import com.kvportal.sandbox.store.StoredPromotionCode;
import com.stripe.model.Coupon;
import com.stripe.model.Discount;
import com.stripe.model.PromotionCode;
import java.util.Map;

/** Renders coupons, promotion codes and discounts as stripe-java's model objects, in Stripe's shapes. */
public final class StripeDiscountJson {

    private StripeDiscountJson() {}

    public static Coupon coupon(StoredCoupon c, long now) {
        Coupon coupon = new Coupon();
        coupon.setId(c.id());
        coupon.setObject("coupon");
        coupon.setAmountOff(c.amountOff());
        coupon.setCreated(c.created());
        coupon.setCurrency(c.currency());
        coupon.setDuration(c.duration());
        coupon.setDurationInMonths(
                c.durationInMonths() == null ? null : c.durationInMonths().longValue());
        coupon.setLivemode(false);
        coupon.setMaxRedemptions(c.maxRedemptions());
        coupon.setMetadata(c.metadata());
        coupon.setName(c.name());
        coupon.setPercentOff(c.percentOff());
        coupon.setRedeemBy(c.redeemBy());
        coupon.setTimesRedeemed(c.timesRedeemed());
        coupon.setValid(c.valid(now));
        return coupon;
    }

    public static PromotionCode promotionCode(StoredPromotionCode p) {
        PromotionCode code = new PromotionCode();
        code.setId(p.id());
        code.setObject("promotion_code");
        code.setActive(p.active());
        code.setCode(p.code());
        code.setCreated(p.created());
        code.setExpiresAt(p.expiresAt());
        code.setLivemode(false);
        code.setMaxRedemptions(p.maxRedemptions());
        code.setMetadata(p.metadata());
        PromotionCode.Promotion promotion = new PromotionCode.Promotion();
        promotion.setType("coupon");
        promotion.setCoupon(p.coupon());
        code.setPromotion(promotion);
        PromotionCode.Restrictions restrictions = new PromotionCode.Restrictions();
        restrictions.setFirstTimeTransaction(false);
        restrictions.setCurrencyOptions(Map.of());
        code.setRestrictions(restrictions);
        code.setTimesRedeemed(p.timesRedeemed());
        return code;
    }

    public static Discount discount(StoredDiscount d) {
        Discount discount = new Discount();
        discount.setId(d.id());
        discount.setObject("discount");
        discount.setCheckoutSession(d.checkoutSession());
        discount.setCustomer(d.customer());
        discount.setEnd(d.end());
        discount.setPromotionCode(d.promotionCode());
        Discount.Source source = new Discount.Source();
        source.setType("coupon");
        source.setCoupon(d.coupon());
        discount.setSource(source);
        discount.setStart(d.start());
        discount.setSubscription(d.subscription());
        return discount;
    }
}
