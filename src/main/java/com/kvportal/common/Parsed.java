package com.kvportal.common;

import java.time.DateTimeException;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A text that another party wrote (a provider's metadata, an id in its answer), read where an absent or malformed
 * one means "not given" rather than a failure.
 */
public final class Parsed {

    private Parsed() {}

    /**
     * The text read by {@code parser}; empty when it is null or the parser refuses it (an
     * {@link IllegalArgumentException}, as {@code UUID.fromString} throws, or a {@link DateTimeException}, as
     * {@code Instant.parse} does).
     */
    public static <T> Optional<T> orEmpty(@Nullable String text, Function<String, T> parser) {
        if (text == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(parser.apply(text));
        } catch (IllegalArgumentException | DateTimeException malformed) {
            return Optional.empty();
        }
    }
}
