package com.kvportal.common.web;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** The one reading of an {@code Authorization: Bearer <token>} header (RFC 6750; the scheme is case-insensitive). */
public final class BearerToken {

    private static final String SCHEME = "Bearer ";

    private BearerToken() {}

    /** The token of a bearer header, stripped of surrounding white space; empty for no header or another scheme. */
    public static Optional<String> of(@Nullable String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            return Optional.empty();
        }
        return Optional.of(authorization.substring(SCHEME.length()).strip());
    }

    /**
     * Whether the bearer token of {@code authorization} is one of {@code expected} (SHA-256 digests, see
     * {@link #digest}): compared in constant time and with every one of them, so that neither its content nor its
     * length shows in the timing.
     */
    public static boolean matchesAny(@Nullable String authorization, List<byte[]> expected) {
        Optional<String> token = of(authorization);
        if (token.isEmpty()) {
            return false;
        }
        byte[] presented = digest(token.get());
        boolean match = false;
        for (byte[] digest : expected) {
            match |= MessageDigest.isEqual(digest, presented);
        }
        return match;
    }

    /** The SHA-256 digest of a configured token, to give {@link #matchesAny}. */
    public static byte[] digest(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
