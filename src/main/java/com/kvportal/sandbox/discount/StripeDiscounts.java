package com.kvportal.sandbox.discount;

import com.kvportal.sandbox.store.SandboxDiscounts;
import com.kvportal.sandbox.store.StoredCoupon;
import com.kvportal.sandbox.store.StoredDiscount;
import com.kvportal.sandbox.store.StoredPromotionCode;
import com.kvportal.sandbox.stripe.StripeDiscountJson;
import com.kvportal.sandbox.stripe.StripeError;
import com.kvportal.sandbox.stripe.StripeId;
import com.kvportal.sandbox.stripe.StripeJson;
import com.kvportal.sandbox.stripe.StripeParams;
import com.stripe.model.Coupon;
import com.stripe.model.PromotionCode;
import com.stripe.model.StripeCollection;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The sandbox's coupons and promotion codes (made by operators and tests through the API, as at Stripe) and the
 * discounts they make: on a checkout session ({@code discounts}, or a code the customer types on the hosted page),
 * moved to the subscription the session makes when it is paid.
 */
@Service
@RequiredArgsConstructor
public class StripeDiscounts {

    /** Stripe's coupon ids and promotion codes: letters, digits, dashes and underscores. */
    private static final Pattern CODE = Pattern.compile("[A-Za-z0-9_-]{1,200}");

    private static final Set<String> DURATIONS = Set.of("once", "repeating", "forever");

    private final SandboxDiscounts discounts;
    private final Clock clock;

    // coupons

    @Transactional
    public Coupon createCoupon(StripeParams params) {
        params.allowOnly(
                Set.of(
                        "id",
                        "name",
                        "percent_off",
                        "amount_off",
                        "currency",
                        "duration",
                        "duration_in_months",
                        "max_redemptions",
                        "redeem_by",
                        "metadata"),
                Set.of());
        String id = params.text("id");
        if (id != null && !CODE.matcher(id).matches()) {
            throw StripeError.invalid("id", "A coupon id may hold letters, digits, dashes and underscores only.");
        }
        BigDecimal percentOff = params.decimal("percent_off");
        Long amountOff = params.integer("amount_off");
        if ((percentOff == null) == (amountOff == null)) {
            throw StripeError.invalid(
                    "percent_off", "You must pass exactly one of these parameters: amount_off, percent_off.");
        }
        if (percentOff != null && (percentOff.signum() <= 0 || percentOff.compareTo(BigDecimal.valueOf(100)) > 0)) {
            throw StripeError.invalid("percent_off", "percent_off must be greater than 0 and at most 100.");
        }
        String currency = params.text("currency");
        if (amountOff != null) {
            if (amountOff <= 0) {
                throw StripeError.invalid("amount_off", "amount_off must be a positive integer.");
            }
            if (currency == null) {
                throw StripeError.missing("currency");
            }
            if (!currency.equals("usd")) {
                throw StripeError.invalid("currency", "The sandbox's prices are in usd: currency must be usd.");
            }
        } else if (currency != null) {
            throw StripeError.invalid("currency", "currency is only for a coupon with amount_off.");
        }
        String duration = params.text("duration") == null ? "once" : params.text("duration");
        if (!DURATIONS.contains(duration)) {
            throw StripeError.invalid("duration", "duration must be one of once, repeating or forever.");
        }
        Long months = params.integer("duration_in_months");
        if (duration.equals("repeating") && (months == null || months < 1 || months > 1200)) {
            throw StripeError.invalid(
                    "duration_in_months", "A repeating coupon needs duration_in_months between 1 and 1200.");
        }
        if (!duration.equals("repeating") && months != null) {
            throw StripeError.invalid("duration_in_months", "duration_in_months is only for duration=repeating.");
        }
        Long maxRedemptions = positive(params, "max_redemptions");
        long now = now();
        Long redeemBy = params.integer("redeem_by");
        if (redeemBy != null && redeemBy <= now) {
            throw StripeError.invalid("redeem_by", "redeem_by must be in the future.");
        }
        StoredCoupon coupon = new StoredCoupon(
                id == null ? StripeId.COUPON.next() : id,
                params.shortText("name"),
                percentOff,
                amountOff,
                currency,
                duration,
                months == null ? null : months.intValue(),
                maxRedemptions,
                redeemBy,
                0,
                StripeParams.merged(Map.of(), params.metadata("metadata")),
                now);
        if (!discounts.insert(coupon)) {
            throw StripeError.state("resource_already_exists", "Coupon already exists.");
        }
        return StripeDiscountJson.coupon(coupon, now);
    }

    public Coupon retrieveCoupon(String id) {
        return discounts
                .coupon(id)
                .map(c -> StripeDiscountJson.coupon(c, now()))
                .orElseThrow(() -> StripeError.noSuch("coupon", id, "id"));
    }

    public StripeCollection<Coupon> listCoupons(int limit) {
        long now = now();
        return StripeJson.page(
                discounts.coupons(limit + 1), limit, c -> StripeDiscountJson.coupon(c, now), "/v1/coupons");
    }

    // promotion codes

    /**
     * {@code POST /v1/promotion_codes}: {@code promotion[type]=coupon} with {@code promotion[coupon]} (the current
     * API's shape; the older top-level {@code coupon} is taken too), {@code code}, {@code active},
     * {@code expires_at}, {@code max_redemptions}, {@code metadata}.
     */
    @Transactional
    public PromotionCode createPromotionCode(StripeParams params) {
        params.allowOnly(
                Set.of("promotion", "coupon", "code", "active", "expires_at", "max_redemptions", "metadata"),
                Set.of("restrictions"));
        String type = params.text("promotion[type]");
        if (type != null && !type.equals("coupon")) {
            throw StripeError.invalid("promotion[type]", "promotion[type] must be coupon.");
        }
        String couponId =
                params.text("promotion[coupon]") != null ? params.text("promotion[coupon]") : params.required("coupon");
        StoredCoupon coupon = discounts
                .coupon(couponId)
                .orElseThrow(() -> StripeError.noSuchParam("coupon", couponId, "promotion[coupon]"));
        long now = now();
        if (!coupon.valid(now)) {
            throw StripeError.invalid("promotion[coupon]", "The coupon " + couponId + " is no longer valid.");
        }
        String code = params.text("code");
        if (code != null && !CODE.matcher(code).matches()) {
            throw StripeError.invalid(
                    "code", "A promotion code may hold letters, digits, dashes and underscores only.");
        }
        Long expiresAt = params.integer("expires_at");
        if (expiresAt != null && expiresAt <= now) {
            throw StripeError.invalid("expires_at", "expires_at must be in the future.");
        }
        Boolean active = params.bool("active");
        StoredPromotionCode promotionCode = new StoredPromotionCode(
                StripeId.PROMOTION_CODE.next(),
                code == null ? StripeId.COUPON.next().toUpperCase() : code,
                coupon.id(),
                active == null || active,
                expiresAt,
                positive(params, "max_redemptions"),
                0,
                StripeParams.merged(Map.of(), params.metadata("metadata")),
                now);
        if (!discounts.insert(promotionCode)) {
            throw StripeError.invalid(
                    "code", "An active promotion code with `code: " + promotionCode.code() + "` already exists.");
        }
        return StripeDiscountJson.promotionCode(promotionCode);
    }

    public PromotionCode retrievePromotionCode(String id) {
        return discounts
                .promotionCode(id)
                .map(StripeDiscountJson::promotionCode)
                .orElseThrow(() -> StripeError.noSuch("promotion_code", id, "id"));
    }

    /** {@code GET /v1/promotion_codes}: newest first, by {@code code} (any case), {@code active}, {@code coupon}. */
    public StripeCollection<PromotionCode> listPromotionCodes(StripeParams params) {
        int limit = params.limit();
        return StripeJson.page(
                discounts.promotionCodes(params.text("code"), params.bool("active"), params.text("coupon"), limit + 1),
                limit,
                StripeDiscountJson::promotionCode,
                "/v1/promotion_codes");
    }

    /** {@code POST /v1/promotion_codes/{id}}: {@code active} and {@code metadata}, as Stripe lets them change. */
    @Transactional
    public PromotionCode updatePromotionCode(String id, StripeParams params) {
        params.allowOnly(Set.of("active", "metadata"), Set.of("restrictions"));
        StoredPromotionCode code =
                discounts.promotionCode(id).orElseThrow(() -> StripeError.noSuch("promotion_code", id, "id"));
        Boolean active = params.bool("active");
        if (Boolean.TRUE.equals(active) && !code.active()) {
            throw StripeError.invalid("active", "A promotion code that was deactivated cannot be activated again.");
        }
        StoredPromotionCode updated = code.withActive(active == null ? code.active() : active)
                .withMetadata(StripeParams.merged(code.metadata(), params.metadata("metadata")));
        discounts.update(updated);
        return StripeDiscountJson.promotionCode(updated);
    }

    // discounts of checkout sessions and subscriptions

    /**
     * The discount a new checkout session asks for ({@code discounts[0][promotion_code]} or
     * {@code discounts[0][coupon]}), checked as Stripe checks it: the code active, not expired, with redemptions
     * left, and its coupon valid. Made (with the session's id) when there is one.
     */
    public Optional<StoredDiscount> forCheckoutSession(StripeParams params, String sessionId) {
        if (params.text("discounts[1][coupon]") != null || params.text("discounts[1][promotion_code]") != null) {
            throw StripeError.invalid("discounts", "The sandbox applies one discount per session.");
        }
        String codeId = params.text("discounts[0][promotion_code]");
        String couponId = params.text("discounts[0][coupon]");
        if (codeId != null && couponId != null) {
            throw StripeError.onlyOneOf("discounts[0]", "coupon", "promotion_code");
        }
        long now = now();
        if (codeId != null) {
            StoredPromotionCode code = discounts
                    .promotionCode(codeId)
                    .orElseThrow(
                            () -> StripeError.noSuchParam("promotion_code", codeId, "discounts[0][promotion_code]"));
            redeemable(code, now, "discounts[0][promotion_code]");
            return Optional.of(inserted(newDiscount(code.coupon(), code.id(), sessionId, now)));
        }
        if (couponId != null) {
            StoredCoupon coupon = discounts
                    .coupon(couponId)
                    .orElseThrow(() -> StripeError.noSuchParam("coupon", couponId, "discounts[0][coupon]"));
            if (!coupon.valid(now)) {
                throw StripeError.invalid("discounts[0][coupon]", "The coupon " + couponId + " is no longer valid.");
            }
            return Optional.of(inserted(newDiscount(coupon.id(), null, sessionId, now)));
        }
        return Optional.empty();
    }

    /**
     * The discount of a code the customer typed on the hosted page: the active code of that text, redeemable now.
     * It changes nothing; a code that cannot be used is refused with a message for the customer.
     */
    public StoredDiscount typed(String text, String sessionId) {
        long now = now();
        StoredPromotionCode code = discounts.promotionCodes(text.strip(), true, null, 1).stream()
                .findFirst()
                .orElseThrow(() -> StripeError.invalid("promotion_code", "This code is invalid."));
        redeemable(code, now, "promotion_code");
        return newDiscount(code.coupon(), code.id(), sessionId, now);
    }

    /**
     * The paid session's discount moves to its subscription from {@code start}: a repeating coupon's ends
     * {@code duration_in_months} months later; the coupon and the code count one more redemption.
     */
    public void attach(StoredDiscount discount, String customer, String subscription, long start) {
        StoredCoupon coupon = discounts.coupon(discount.coupon()).orElseThrow();
        Long end = coupon.duration().equals("repeating") && coupon.durationInMonths() != null
                ? Instant.ofEpochSecond(start)
                        .atZone(ZoneOffset.UTC)
                        .plusMonths(coupon.durationInMonths())
                        .toEpochSecond()
                : null;
        if (discounts.discount(discount.id()).isEmpty()) {
            discounts.insert(discount);
        }
        discounts.attach(discount.id(), customer, subscription, start, end);
        discounts.redeemed(coupon.id(), discount.promotionCode());
    }

    /** The discount the session was made with, if any. */
    public Optional<StoredDiscount> ofCheckoutSession(String sessionId) {
        return discounts.ofCheckoutSession(sessionId);
    }

    private StoredDiscount inserted(StoredDiscount discount) {
        discounts.insert(discount);
        return discount;
    }

    private void redeemable(StoredPromotionCode code, long now, String param) {
        StoredCoupon coupon = discounts.coupon(code.coupon()).orElseThrow();
        if (!code.redeemable(now) || !coupon.valid(now)) {
            throw StripeError.invalid(
                    param, "This promotion code cannot be redeemed: it is inactive, expired or used up.");
        }
    }

    private static StoredDiscount newDiscount(
            String coupon, @Nullable String promotionCode, String sessionId, long now) {
        return new StoredDiscount(
                StripeId.DISCOUNT.next(), coupon, promotionCode, sessionId, null, null, null, null, now);
    }

    private static @Nullable Long positive(StripeParams params, String key) {
        Long value = params.integer(key);
        if (value != null && value < 1) {
            throw StripeError.invalid(key, key + " must be a positive integer.");
        }
        return value;
    }

    private long now() {
        return clock.instant().getEpochSecond();
    }
}
