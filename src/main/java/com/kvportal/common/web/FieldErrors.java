package com.kvportal.common.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;

/**
 * Collects field errors of a body that Bean Validation cannot describe (e.g. a batch read as a JSON tree, with paths
 * like {@code samples[1].bytes}) and fails with one 400 {@code validation_failed} listing them all, in the shape
 * {@link ProblemAdvice} gives a request record's constraint violations.
 */
public final class FieldErrors {

    private final List<Map<String, String>> errors = new ArrayList<>();

    public FieldErrors add(String field, String message) {
        errors.add(Map.of("field", field, "message", message));
        return this;
    }

    /**
     * Checks a display name as {@code @DisplayName} does: present, 1 to {@code max} characters once trimmed, no
     * control characters.
     *
     * @return the trimmed name, or null when it is invalid (the error is recorded)
     */
    public @Nullable String name(String field, @Nullable String value, int max) {
        if (value == null || value.isBlank()) {
            add(field, "is required");
            return null;
        }
        String trimmed = value.strip();
        if (trimmed.codePointCount(0, trimmed.length()) > max) {
            add(field, "must be at most " + max + " characters");
            return null;
        }
        if (trimmed.codePoints().anyMatch(Character::isISOControl)) {
            add(field, "must not contain control characters");
            return null;
        }
        return trimmed;
    }

    public boolean isEmpty() {
        return errors.isEmpty();
    }

    /** Throws 400 {@code validation_failed} when any error was recorded. */
    public void throwIfAny() {
        if (!errors.isEmpty()) {
            throw new ProblemException(HttpStatus.BAD_REQUEST, "validation_failed", "The request has invalid fields.")
                    .withProperty("errors", List.copyOf(errors));
        }
    }
}
