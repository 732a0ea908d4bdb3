package com.kvportal.common.web;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.RequestPath;

/**
 * The path of a request as Spring MVC routes it: within the application, each segment percent-decoded and without
 * its {@code ;} parameters. Every rule keyed on a path (abuse limits, body size, CSRF exemptions, the actuator guard,
 * ...) reads it here, never {@code getRequestURI()}: {@code /api/v1/auth/%6cogin} reaches the login endpoint, so it
 * must meet the login limits too.
 */
public final class RoutedPath {

    private static final String ATTRIBUTE = RoutedPath.class.getName();

    private RoutedPath() {}

    public static String of(HttpServletRequest request) {
        if (request.getAttribute(ATTRIBUTE) instanceof String cached
                && request.getRequestURI().equals(request.getAttribute(ATTRIBUTE + ".uri"))) {
            return cached;
        }
        PathContainer path = RequestPath.parse(request.getRequestURI(), request.getContextPath())
                .pathWithinApplication();
        StringBuilder routed = new StringBuilder(request.getRequestURI().length());
        for (PathContainer.Element element : path.elements()) {
            routed.append(
                    element instanceof PathContainer.PathSegment segment ? segment.valueToMatch() : element.value());
        }
        String value = routed.toString();
        request.setAttribute(ATTRIBUTE, value);
        request.setAttribute(ATTRIBUTE + ".uri", request.getRequestURI());
        return value;
    }

    /** Whether the routed path is {@code prefix} or lies below it ({@code /actuator} and {@code /actuator/...}). */
    public static boolean isAtOrBelow(String path, String prefix) {
        return path.equals(prefix) || path.startsWith(prefix + "/");
    }
}
