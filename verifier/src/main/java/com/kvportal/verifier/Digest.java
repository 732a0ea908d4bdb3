package com.kvportal.verifier;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The SHA-256 digest of a raw key, as the service computes it (SHA-256 of the key's US-ASCII bytes, as {@code
 * String.getBytes(US_ASCII)} encodes them): the cache's key, so that the library keeps no raw key in memory. Computed
 * with one {@link MessageDigest} and one buffer per thread, so that digesting a key allocates nothing but this
 * record (four longs).
 */
record Digest(long first, long second, long third, long fourth) {

    private static final ThreadLocal<Sha256> SHA256 = ThreadLocal.withInitial(Sha256::new);

    static Digest of(String rawKey) {
        return SHA256.get().digest(rawKey);
    }

    @Override
    public int hashCode() {
        return (int) first; // uniformly random bits already
    }

    @Override
    public String toString() {
        return "Digest[" + Long.toHexString(first >>> 32) + "…]";
    }

    /** One thread's SHA-256 and its buffers. */
    private static final class Sha256 {

        private final MessageDigest sha256;
        private final byte[] out = new byte[32];
        private final ByteBuffer outView = ByteBuffer.wrap(out);
        private byte[] in = new byte[64];

        Sha256() {
            try {
                sha256 = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 is part of every JRE", e);
            }
        }

        Digest digest(String rawKey) {
            int length = rawKey.length();
            if (in.length < length) {
                in = new byte[length];
            }
            for (int i = 0; i < length; i++) {
                char c = rawKey.charAt(i);
                if (c >= 0x80) {
                    return digest(rawKey.getBytes(StandardCharsets.US_ASCII)); // never a key: as the JDK encodes it
                }
                in[i] = (byte) c;
            }
            sha256.update(in, 0, length);
            return finish();
        }

        private Digest digest(byte[] bytes) {
            sha256.update(bytes);
            return finish();
        }

        private Digest finish() {
            try {
                sha256.digest(out, 0, out.length);
            } catch (DigestException e) {
                throw new IllegalStateException(e);
            }
            return new Digest(outView.getLong(0), outView.getLong(8), outView.getLong(16), outView.getLong(24));
        }
    }
}
