package com.kvportal.common.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/**
 * The problems of requests refused before any endpoint is chosen, by the HTTP server (Tomcat) or the security
 * firewall: a path with an empty segment ({@code //}), a parameter ({@code ;jsessionid=}), an encoded slash or a dot
 * segment; a method nobody knows; headers over the limit. Each says what to send instead; none is logged, for each is
 * the client's mistake and says nothing about the service.
 */
public final class RefusedRequests {

    /** The methods the API's endpoints take (each path: some of them, as its {@code Allow} header says). */
    public static final List<String> METHODS = List.of("GET", "POST", "PUT", "PATCH", "DELETE");

    /** The most header bytes the server reads ({@code server.max-http-request-header-size}). */
    static final int MAX_HEADER_KIB = 8;

    private static final String AS_LISTED = " as the OpenAPI document at /v3/api-docs lists it, e.g. /api/v1/session.";

    private RefusedRequests() {}

    /**
     * 400 {@code bad_request} for a path refused as it is written, naming what is wrong with it; {@code path} is the
     * path as sent (still percent-encoded), or null when the request line could not be read at all.
     */
    static ProblemDetail badPath(@Nullable String path) {
        return Problems.of(CommonProblem.BAD_REQUEST, badPathDetail(path));
    }

    static String badPathDetail(@Nullable String path) {
        String sent = path == null ? "" : path.toLowerCase(Locale.ROOT);
        if (sent.contains(";")) {
            return "The path holds a ';' (a path parameter such as ;jsessionid=): send the path without it; a session"
                    + " goes in its cookie, never in the path.";
        }
        if (sent.contains("%2f") || sent.contains("%5c") || sent.contains("\\")) {
            return "The path holds an encoded slash or a backslash (%2F, %5C): send each segment of the path"
                    + " plainly," + AS_LISTED;
        }
        if (sent.contains("//")) {
            return "The path holds an empty segment (//): send the path with single slashes," + AS_LISTED;
        }
        if (sent.matches(".*(^|/)(\\.|%2e){1,2}(/|$).*")) {
            return "The path holds a dot segment (. or .., also encoded): send the path without them," + AS_LISTED;
        }
        return "The request line cannot be read (characters a path may not hold, e.g. a space, { } | < > or an"
                + " encoded control character): send the path percent-encoded," + AS_LISTED;
    }

    /** 405 for a method that no endpoint takes (the answer's {@code Allow} header lists {@link #METHODS}). */
    static ProblemDetail unknownMethod(String method) {
        return Problems.of(
                HttpStatus.METHOD_NOT_ALLOWED,
                Problems.defaultCode(HttpStatus.METHOD_NOT_ALLOWED),
                printable(method) + " is not a method this API takes: send GET, POST, PUT, PATCH or DELETE, as the"
                        + " OpenAPI document at /v3/api-docs lists for each path.");
    }

    /** 431 {@code headers_too_large}: the request's headers together are over the limit. */
    static ProblemDetail headersTooLarge() {
        return Problems.of(
                HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
                Problems.defaultCode(HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE),
                "The request's headers are larger than " + MAX_HEADER_KIB + " KiB in all: send fewer or shorter"
                        + " headers (cookies of other sites on this host count too).");
    }

    /**
     * The problem of a request the security firewall refused, and whether it names a method ({@code Allow} then
     * lists {@link #METHODS}); {@code why} is the firewall's own message, for the server's eyes only.
     */
    public static ProblemDetail refusedByFirewall(HttpServletRequest request, @Nullable String why) {
        String method = request.getMethod();
        if (!METHODS.contains(method) && !"HEAD".equals(method) && !"OPTIONS".equals(method)) {
            return unknownMethod(method);
        }
        if (why != null && why.toLowerCase(Locale.ROOT).contains("header")) {
            return Problems.of(
                    CommonProblem.BAD_REQUEST,
                    "A header's name or value holds a character headers may not hold (a control character, or one"
                            + " outside ISO-8859-1): send headers in printable ASCII.");
        }
        return badPath(request.getRequestURI());
    }

    /** Sets the {@code Allow} header of an answer that names an unknown method. */
    public static void allowMethods(HttpServletResponse response) {
        response.setHeader(HttpHeaders.ALLOW, String.join(", ", METHODS));
    }

    /** A method as a detail may repeat it: a token of letters, else a stand-in. */
    private static String printable(String method) {
        return method.matches("[A-Za-z]{1,20}") ? method : "This method";
    }
}
