package com.kvportal.apikey;

import java.util.Arrays;
import java.util.HexFormat;

/** The SHA-256 digest of a raw key: what the database stores and looks keys up by. */
record KeyDigest(byte[] bytes) {

    @Override
    public boolean equals(Object other) {
        return other instanceof KeyDigest digest && Arrays.equals(bytes, digest.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return "KeyDigest[" + HexFormat.of().formatHex(bytes, 0, 4) + "…]";
    }
}
