package com.kvportal.sandbox.stripe;

import java.security.SecureRandom;

/** The kinds of object ids in Stripe's style: a prefix naming the kind of object and random base-62 characters. */
public enum StripeId {
    CUSTOMER("cus_", 14),
    /** Checkout session ids are also the secret of the hosted page's URL, hence long. */
    CHECKOUT_SESSION("cs_test_", 58),
    SUBSCRIPTION("sub_"),
    SUBSCRIPTION_ITEM("si_", 14),
    SUBSCRIPTION_SCHEDULE("sub_sched_"),
    INVOICE("in_"),
    INVOICE_LINE("il_"),
    INVOICE_ITEM("ii_"),
    INVOICE_PAYMENT("inpay_"),
    PAYMENT_INTENT("pi_"),
    CHARGE("ch_"),
    REFUND("re_"),
    EVENT("evt_"),
    PORTAL_SESSION("bps_"),
    /** Stripe makes a coupon's id of 8 characters without a prefix when none is given. */
    COUPON("", 8),
    PROMOTION_CODE("promo_"),
    DISCOUNT("di_"),
    REQUEST("req_", 14);

    private static final char[] ALPHABET =
            "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String prefix;
    private final int randomLength;

    /** An id of Stripe's usual length: 24 random characters after the prefix. */
    StripeId(String prefix) {
        this(prefix, 24);
    }

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
