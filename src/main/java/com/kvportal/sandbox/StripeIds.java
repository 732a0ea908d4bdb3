package com.kvportal.sandbox;

import java.security.SecureRandom;

/** Object ids in Stripe's style: a prefix naming the kind of object and random base-62 characters. */
final class StripeIds {

    private static final char[] ALPHABET =
            "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();
    private static final SecureRandom RANDOM = new SecureRandom();

    private StripeIds() {}

    static String customer() {
        return "cus_" + random(14);
    }

    /** Checkout session ids are also the secret of the hosted page's URL, hence long. */
    static String checkoutSession() {
        return "cs_test_" + random(58);
    }

    static String subscription() {
        return "sub_" + random(24);
    }

    static String subscriptionItem() {
        return "si_" + random(14);
    }

    static String invoice() {
        return "in_" + random(24);
    }

    static String invoiceLine() {
        return "il_" + random(24);
    }

    static String invoiceItem() {
        return "ii_" + random(24);
    }

    static String event() {
        return "evt_" + random(24);
    }

    static String portalSession() {
        return "bps_" + random(24);
    }

    static String request() {
        return "req_" + random(14);
    }

    private static String random(int length) {
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = ALPHABET[RANDOM.nextInt(ALPHABET.length)];
        }
        return new String(chars);
    }
}
