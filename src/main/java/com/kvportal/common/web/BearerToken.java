package com.kvportal.common.web;

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
}
