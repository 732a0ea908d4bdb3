package com.kvportal.common.web;

import jakarta.servlet.http.HttpServletRequest;

/**
 * The most bytes a request's body may hold. The endpoint the request reaches declares it (security resolves the
 * request's rule before any body is read and sets it here); {@link #DEFAULT} where none is set (every page, every
 * path no endpoint serves). {@code fewerSamples}: the sender can shrink the body by reporting fewer samples (usage
 * reports), which the 413's detail then says.
 */
public record BodyLimit(long bytes, boolean fewerSamples) {

    public static final BodyLimit DEFAULT = new BodyLimit(64 * 1024, false);

    private static final String ATTRIBUTE = BodyLimit.class.getName();

    /** The request's limit, as {@link #set} left it. */
    public static BodyLimit of(HttpServletRequest request) {
        return request.getAttribute(ATTRIBUTE) instanceof BodyLimit limit ? limit : DEFAULT;
    }

    public static void set(HttpServletRequest request, BodyLimit limit) {
        request.setAttribute(ATTRIBUTE, limit);
    }
}
