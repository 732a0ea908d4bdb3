package com.kvportal.apikey;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** The secret a customer holds. Never stored and never logged: {@link #toString()} hides it. */
record RawKey(String value) {

    KeyDigest digest() {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            return KeyDigest.of(sha256.digest(value.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JRE", e);
        }
    }

    @Override
    public String toString() {
        return "RawKey[kv_…]";
    }
}
