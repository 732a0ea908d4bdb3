package com.kvportal.common.web;

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

    private PathIds() {}
}
