package com.kvportal.apikey;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.zip.CRC32;

/**
 * The raw key format: {@code kv_} + 26 random base62 characters + 6 base62 characters of the CRC32 of
 * everything before them. The checksum lets verify refuse a mistyped or made-up key without a query, as
 * GitHub's token format does.
 */
final class ApiKeyFormat {

    static final String PREFIX = "kv_";
    static final int RANDOM_LENGTH = 26;
    static final int CHECKSUM_LENGTH = 6;
    static final int LENGTH = PREFIX.length() + RANDOM_LENGTH + CHECKSUM_LENGTH;

    private static final char[] BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();
    private static final SecureRandom RANDOM = new SecureRandom();

    private ApiKeyFormat() {}

    static RawKey generate() {
        char[] body = new char[RANDOM_LENGTH];
        for (int i = 0; i < RANDOM_LENGTH; i++) {
            body[i] = BASE62[RANDOM.nextInt(BASE62.length)];
        }
        String unchecked = PREFIX + new String(body);
        return new RawKey(unchecked + checksum(unchecked));
    }

    /** True when the string has the format and its checksum matches: cheap, no I/O. */
    static boolean isWellFormed(String candidate) {
        if (candidate.length() != LENGTH || !candidate.startsWith(PREFIX)) {
            return false;
        }
        for (int i = PREFIX.length(); i < LENGTH; i++) {
            if (digit(candidate.charAt(i)) < 0) {
                return false;
            }
        }
        int split = LENGTH - CHECKSUM_LENGTH;
        return checksum(candidate.substring(0, split)).equals(candidate.substring(split));
    }

    /** CRC32 of the ASCII bytes, in base62, most significant digit first, left-padded with {@code 0}. */
    static String checksum(String unchecked) {
        CRC32 crc = new CRC32();
        crc.update(unchecked.getBytes(StandardCharsets.US_ASCII));
        long value = crc.getValue();
        char[] out = new char[CHECKSUM_LENGTH];
        for (int i = CHECKSUM_LENGTH - 1; i >= 0; i--) {
            out[i] = BASE62[(int) (value % 62)];
            value /= 62;
        }
        return new String(out);
    }

    private static int digit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'A' && c <= 'Z') {
            return c - 'A' + 10;
        }
        if (c >= 'a' && c <= 'z') {
            return c - 'a' + 36;
        }
        return -1;
    }
}
