package com.kvportal.apikey;

import java.nio.ByteBuffer;
import java.util.HexFormat;

/**
 * The SHA-256 digest of a raw key: what the database stores and looks keys up by. Held as four longs rather than
 * an array, so that a cached key's digest is one small object (docs/design.md, "The key cache": heap per key).
 */
public record KeyDigest(long first, long second, long third, long fourth) {

    private static final int LENGTH = 32;

    public static KeyDigest of(byte[] sha256) {
        if (sha256.length != LENGTH) {
            throw new IllegalArgumentException("a SHA-256 digest has 32 bytes, not " + sha256.length);
        }
        ByteBuffer buffer = ByteBuffer.wrap(sha256);
        return new KeyDigest(buffer.getLong(), buffer.getLong(), buffer.getLong(), buffer.getLong());
    }

    public byte[] bytes() {
        return ByteBuffer.allocate(LENGTH)
                .putLong(first)
                .putLong(second)
                .putLong(third)
                .putLong(fourth)
                .array();
    }

    @Override
    public String toString() {
        return "KeyDigest[" + HexFormat.of().toHexDigits((int) (first >>> 32)) + "…]";
    }
}
