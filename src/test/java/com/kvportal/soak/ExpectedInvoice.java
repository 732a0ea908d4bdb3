package com.kvportal.soak;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.ZoneOffset;
import org.jspecify.annotations.Nullable;

/**
 * An invoice's figures as docs/billing.md (Promotion codes and tax) and Stripe state them, written out again apart
 * from the sandbox's and the service's code: the subtotal is the sum of the lines; a subscription's invoice made
 * while its coupon applies takes the coupon off the whole subtotal (a percentage rounded half up to the cent, an
 * amount at most the subtotal, nothing off a subtotal of 0 or less); the tax is the billing country's rate on the
 * subtotal after the discount, rounded half up (away from zero) to the cent; the amount due is the subtotal less the
 * discount plus the tax.
 */
record ExpectedInvoice(long subtotal, long discount, long tax, long amountDue) {

    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

    /** The coupons the soak's organizations redeem at checkout: each duration, percentages and amounts off. */
    enum Coupon {
        NONE(null, 0, null, 0),
        ONCE_15_PERCENT("once", 0, "15", 0),
        TWO_MONTHS_750_OFF("repeating", 2, null, 750),
        FOREVER_12_5_PERCENT("forever", 0, "12.5", 0),
        FOREVER_3000_OFF("forever", 0, null, 3_000);

        final @Nullable String duration;
        final int months;
        final @Nullable BigDecimal percentOff;
        final long amountOff;

        Coupon(@Nullable String duration, int months, @Nullable String percentOff, long amountOff) {
            this.duration = duration;
            this.months = months;
            this.percentOff = percentOff == null ? null : new BigDecimal(percentOff);
            this.amountOff = amountOff;
        }

        /**
         * True when a subscription that redeemed the coupon when it started at {@code subscribed} has it on an invoice
         * whose service period starts at {@code at}: once, its first invoice; repeating, the invoices of periods that
         * start within its months (calendar months in UTC); forever, every one.
         */
        boolean appliesAt(Instant subscribed, Instant at) {
            if (duration == null) {
                return false;
            }
            return switch (duration) {
                case "once" -> at.equals(subscribed);
                case "repeating" ->
                    !at.isBefore(subscribed)
                            && at.isBefore(subscribed
                                    .atZone(ZoneOffset.UTC)
                                    .plusMonths(months)
                                    .toInstant());
                default -> true;
            };
        }

        /** What it takes off a subtotal. */
        long off(long subtotal) {
            if (subtotal <= 0) {
                return 0;
            }
            return percentOff != null ? percent(subtotal, percentOff) : Math.min(amountOff, subtotal);
        }

        String label() {
            if (duration == null) {
                return "no coupon";
            }
            String off = percentOff != null
                    ? percentOff.stripTrailingZeros().toPlainString() + " %"
                    : "$" + amountOff / 100 + "." + String.format("%02d", amountOff % 100);
            return off + " off " + (duration.equals("repeating") ? months + " months" : duration);
        }
    }

    /** The billing countries of the soak and the sandbox's test rates. */
    enum Country {
        US("0"),
        DE("19"),
        GB("20");

        final BigDecimal ratePercent;

        Country(String ratePercent) {
            this.ratePercent = new BigDecimal(ratePercent);
        }
    }

    /** The invoice of lines summing to {@code subtotal}, with the coupon when {@code discounted}, taxed by country. */
    static ExpectedInvoice of(long subtotal, Coupon coupon, boolean discounted, Country country) {
        long discount = discounted ? coupon.off(subtotal) : 0;
        long tax = percent(subtotal - discount, country.ratePercent);
        return new ExpectedInvoice(subtotal, discount, tax, subtotal - discount + tax);
    }

    /**
     * The credit of an upgrade for the old plan's unused time, as Stripe prorates to the second: minus the old price
     * times the seconds left of the period over its length, rounded half up to the cent.
     */
    static long unusedTimeCredit(long priceCents, Instant start, Instant end, Instant changedAt) {
        long length = end.getEpochSecond() - start.getEpochSecond();
        long unused = Math.max(0, end.getEpochSecond() - changedAt.getEpochSecond());
        return -BigDecimal.valueOf(priceCents)
                .multiply(BigDecimal.valueOf(unused))
                .divide(BigDecimal.valueOf(length), 0, RoundingMode.HALF_UP)
                .longValueExact();
    }

    /** {@code percent} % of {@code cents}, rounded half up (away from zero) to the cent. */
    static long percent(long cents, BigDecimal percent) {
        return BigDecimal.valueOf(cents)
                .multiply(percent)
                .divide(HUNDRED, 0, RoundingMode.HALF_UP)
                .longValueExact();
    }
}
