package com.kvportal.sandbox.stripe;

import java.security.SecureRandom;

/** The kinds of object ids in Stripe's style: a prefix naming the kind of object and random base-62 characters. */
public enum StripeId {
    CUSTOMER("cus_", 14),
    /** Checkout session ids are also the secret of the hosted page's URL, hence long. */
    CHECKOUT_SESSION("cs_test_", 58),
    SUBSCRIPTION("sub_", 24),
    SUBSCRIPTION_ITEM("si_", 14),
    SUBSCRIPTION_SCHEDULE("sub_sched_", 24),
    INVOICE("in_", 24),
    INVOICE_LINE("il_", 24),
    INVOICE_ITEM("ii_", 24),
    INVOICE_PAYMENT("inpay_", 24),
    PAYMENT_INTENT("pi_", 24),
    CHARGE("ch_", 24),
    REFUND("re_", 24),
    EVENT("evt_", 24),
    PORTAL_SESSION("bps_", 24),
    /** Stripe makes a coupon's id of 8 characters without a prefix when none is given. */
    COUPON("", 8),
    PROMOTION_CODE("promo_", 24),
    DISCOUNT("di_", 24),
    REQUEST("req_", 14);

    private static final char[] ALPHABET =
            "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String prefix;
    private final int randomLength;

    StripeId(String prefix, int randomLength) {
        this.prefix = prefix;
        this.randomLength = randomLength;
    }

    /** A new id of this kind. */
    public String next() {
        char[] chars = new char[randomLength];
        for (int i = 0; i < randomLength; i++) {
            chars[i] = ALPHABET[RANDOM.nextInt(ALPHABET.length)];
        }
        return prefix + new String(chars);
    }
}
