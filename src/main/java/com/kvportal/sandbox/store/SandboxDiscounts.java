package com.kvportal.sandbox.store;

import com.kvportal.sandbox.SandboxDatabase;
import java.util.List;
import java.util.Optional;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Repository;

/** The SQL of the sandbox's coupons, promotion codes and discounts. */
@Repository
@RequiredArgsConstructor
public class SandboxDiscounts {

    private static final StoredTable<StoredCoupon> COUPONS =
            StoredTable.of("select * from sandbox.sandbox_coupons", StoredCoupon.class);
    private static final StoredTable<StoredPromotionCode> CODES =
            StoredTable.of("select * from sandbox.sandbox_promotion_codes", StoredPromotionCode.class);
    private static final StoredTable<StoredDiscount> DISCOUNTS =
            StoredTable.of("select * from sandbox.sandbox_discounts", StoredDiscount.class);

    private final SandboxDatabase database;

    // coupons

    /** @return false when a coupon of that id exists already */
    public boolean insert(StoredCoupon c) {
        return StoredRows.write(
                        database,
                        """
                        insert into sandbox.sandbox_coupons (id, name, percent_off, amount_off, currency, duration,
                            duration_in_months, max_redemptions, redeem_by, times_redeemed, metadata, created)
                        values (:id, :name, :percentOff, :amountOff, :currency, :duration, :durationInMonths,
                            :maxRedemptions, :redeemBy, :timesRedeemed, :metadata::jsonb, :created)
                        on conflict (id) do nothing""",
                        c)
                > 0;
    }

    public Optional<StoredCoupon> coupon(String id) {
        return COUPONS.one(database, id);
    }

    public List<StoredCoupon> coupons(int limit) {
        return COUPONS.list(database, "order by created desc, id desc limit ?", limit);
    }

    // promotion codes

    /** @return false when an active code of the same text exists already */
    public boolean insert(StoredPromotionCode p) {
        return StoredRows.write(
                        database,
                        """
                        insert into sandbox.sandbox_promotion_codes (id, code, coupon, active, expires_at, max_redemptions,
                            times_redeemed, metadata, created)
                        values (:id, :code, :coupon, :active, :expiresAt, :maxRedemptions, :timesRedeemed,
                            :metadata::jsonb, :created)
                        on conflict (upper(code)) where active do nothing""",
                        p)
                > 0;
    }

    public void update(StoredPromotionCode p) {
        StoredRows.write(
                database,
                "update sandbox.sandbox_promotion_codes set active = :active, metadata = :metadata::jsonb"
                        + " where id = :id",
                p);
    }

    public Optional<StoredPromotionCode> promotionCode(String id) {
        return CODES.one(database, id);
    }

    /** Newest first; {@code code} matches without regard to case, as at Stripe. */
    public List<StoredPromotionCode> promotionCodes(
            @Nullable String code, @Nullable Boolean active, @Nullable String coupon, int limit) {
        return database.sql(
                        """
                        select * from sandbox.sandbox_promotion_codes
                        where (cast(:code as text) is null or upper(code) = upper(:code))
                          and (cast(:active as boolean) is null or active = :active)
                          and (cast(:coupon as text) is null or coupon = :coupon)
                        order by created desc, id desc limit :limit""")
                .param("code", code)
                .param("active", active)
                .param("coupon", coupon)
                .param("limit", limit)
                .query(CODES.rows())
                .list();
    }

    /** Counts a redemption of the promotion code (if any) and of its coupon. */
    public void redeemed(String coupon, @Nullable String promotionCode) {
        database.sql("update sandbox.sandbox_coupons set times_redeemed = times_redeemed + 1 where id = ?")
                .param(coupon)
                .update();
        if (promotionCode != null) {
            database.sql("update sandbox.sandbox_promotion_codes set times_redeemed = times_redeemed + 1 where id = ?")
                    .param(promotionCode)
                    .update();
        }
    }

    // discounts

    public void insert(StoredDiscount d) {
        StoredRows.write(
                database,
                """
                        insert into sandbox.sandbox_discounts (id, coupon, promotion_code, checkout_session, customer,
                            subscription, start, "end", created)
                        values (:id, :coupon, :promotionCode, :checkoutSession, :customer, :subscription, :start, :end,
                            :created)""",
                d);
    }

    public Optional<StoredDiscount> discount(String id) {
        return DISCOUNTS.one(database, id);
    }

    /** The discount a checkout session carries, if any. */
    public Optional<StoredDiscount> ofCheckoutSession(String session) {
        return DISCOUNTS.single(database, "where checkout_session = ? order by created limit 1", session);
    }

    /** The discounts of the subscription that apply at {@code at}, oldest first. */
    public List<StoredDiscount> ofSubscription(String subscription, long at) {
        return DISCOUNTS.list(
                database,
                "where subscription = ? and start <= ? and (\"end\" is null or \"end\" > ?) order by created, id",
                subscription,
                at,
                at);
    }

    /** The discount now belongs to the subscription, from {@code start} until {@code end} (null: no end yet). */
    public void attach(String id, String customer, String subscription, long start, @Nullable Long end) {
        database.sql(
                        """
                        update sandbox.sandbox_discounts set customer = ?, subscription = ?, start = ?, "end" = ?
                        where id = ?""")
                .params(customer, subscription, start, end, id)
                .update();
    }

    /** A {@code once} discount, used by its first invoice, ends. */
    public void end(String id, long at) {
        database.sql("update sandbox.sandbox_discounts set \"end\" = ? where id = ?")
                .params(at, id)
                .update();
    }
}
