package com.kvportal.common.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

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
     * Records every member of {@code object} that is not one of {@code known}: a field the endpoint does not know is
     * refused, never ignored (a typo would otherwise pass unnoticed).
     *
     * @param path where the object is in the body ({@code samples[1]}), or empty for the body itself
     */
    public FieldErrors unknownFields(JsonNode object, String path, List<String> known) {
        for (String name : object.propertyNames()) {
            if (!known.contains(name)) {
                add(path.isEmpty() ? name : path + "." + name, unknownField(known));
            }
        }
        return this;
    }

    /** The message for a field the endpoint does not know: what it takes instead. */
    public static String unknownField(List<String> known) {
        return "is not a field of this request; the fields are: " + String.join(", ", known);
    }

    public boolean isEmpty() {
        return errors.isEmpty();
    }

    /** Throws 400 {@code validation_failed} when any error was recorded. */
    public void throwIfAny() {
        if (!errors.isEmpty()) {
            throw new ProblemException(CommonProblem.VALIDATION_FAILED, "The request has invalid fields.")
                    .withProperty("errors", List.copyOf(errors));
        }
    }
}
