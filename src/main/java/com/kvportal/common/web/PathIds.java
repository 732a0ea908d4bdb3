package com.kvportal.common.web;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An id in a path is a UUID, and only a UUID matches it: map {@code "/api-keys/" + PathIds.ID}, never {@code
 * "/api-keys/{id}"}, so that no id route answers for a literal sibling such as {@code /api-keys/verify}. A path
 * segment where an id belongs that is not one answers 400 {@code validation_failed} ({@link ProblemAdvice}).
 */
public final class PathIds {

    /** A UUID's pattern, for a path variable of another name: {@code "{deliveryId:" + PathIds.UUID + "}"}. */
    public static final String UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

    /** The path variable {@code id}, matching a UUID only. */
    public static final String ID = "{id:" + UUID + "}";

    private static final Pattern UUID_VARIABLE = Pattern.compile("\\{(\\w+):" + Pattern.quote(UUID) + "}");

    private PathIds() {}

    /** A route's pattern with each UUID variable relaxed to any segment: {@code {id:<UUID>}} becomes {@code {id}}. */
    public static String relaxed(String pattern) {
        return UUID_VARIABLE.matcher(pattern).replaceAll("{$1}");
    }

    /** The names of a route pattern's UUID variables, in order. */
    static List<String> uuidVariables(String pattern) {
        Matcher variables = UUID_VARIABLE.matcher(pattern);
        List<String> ids = new ArrayList<>();
        while (variables.find()) {
            ids.add(variables.group(1));
        }
        return ids;
    }
}
