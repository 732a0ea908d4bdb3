package com.kvportal.sandbox.store;

import org.jspecify.annotations.Nullable;

/**
 * A coupon applied, as Stripe's discount object: made on a checkout session, it moves to the subscription that
 * the session makes ({@code start}); it applies to the subscription's invoices made before {@code end} (null:
 * forever, or a {@code once} discount not used yet).
 */
public record StoredDiscount(
        String id,
        String coupon,
        @Nullable String promotionCode,
        @Nullable String checkoutSession,
        @Nullable String customer,
        @Nullable String subscription,
        @Nullable Long start,
        @Nullable Long end,
        long created) {

    /** True when it applies to an invoice of its subscription made at {@code at}. */
    public boolean appliesAt(long at) {
        return subscription != null && start != null && at >= start && (end == null || at < end);
    }
}
