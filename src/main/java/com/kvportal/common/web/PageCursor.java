package com.kvportal.common.web;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A position in a list paged newest first (the audit log, a webhook endpoint's deliveries): the (time, id) of the
 * last row of a page. The next page holds the rows strictly older than it, so rows written while a client pages (all
 * newer than its position) can neither be skipped nor shown twice. Opaque to clients: base64url of {@code <epoch
 * micros>:<id>}.
 */
public record PageCursor(Instant at, UUID id) {

    /** A page's size when the client names none. */
    public static final int DEFAULT_LIMIT = 50;

    /** The largest page a client may ask for. */
    public static final int MAX_LIMIT = 200;

    /** The page size of {@code limit} (1 to {@link #MAX_LIMIT}), {@link #DEFAULT_LIMIT} when absent. */
    public static int limit(@Nullable String limit) {
        return limit(limit, DEFAULT_LIMIT, MAX_LIMIT);
    }

    /**
     * The count a list's {@code limit} parameter asks for: 1 to {@code max}, {@code defaultLimit} when absent; else
     * a 400 that names the field.
     */
    public static int limit(@Nullable String limit, int defaultLimit, int max) {
        if (limit == null) {
            return defaultLimit;
        }
        try {
            int value = Integer.parseInt(limit);
            if (value >= 1 && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        new FieldErrors()
                .add("limit", "must be a whole number from 1 to " + max)
                .throwIfAny();
        throw new IllegalStateException("unreachable");
    }

    public String encode() {
        long micros = Math.addExact(Math.multiplyExact(at.getEpochSecond(), 1_000_000L), at.getNano() / 1_000);
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString((micros + ":" + id).getBytes(StandardCharsets.US_ASCII));
    }

    /** @throws ProblemException 400 {@code validation_failed} for anything we did not issue */
    public static PageCursor decode(String cursor) {
        try {
            String plain = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.US_ASCII);
            int colon = plain.indexOf(':');
            long micros = Long.parseLong(plain.substring(0, colon));
            UUID id = UUID.fromString(plain.substring(colon + 1));
            if (!(micros + ":" + id).equals(plain)) {
                throw new IllegalArgumentException("not canonical");
            }
            return new PageCursor(
                    Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000),
                    id);
        } catch (RuntimeException e) {
            new FieldErrors().add("cursor", "is not a cursor of this list").throwIfAny();
            throw new IllegalStateException("unreachable", e);
        }
    }
}
