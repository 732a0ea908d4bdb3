package com.kvportal.common.web;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpStatus;

/**
 * A failure that the API reports as an RFC 9457 problem with a stable {@code code}. Features throw
 * subclasses named for what happened ({@code ApiKeyNotFound}, {@code UnknownTier}); {@link ProblemAdvice}
 * turns them into responses.
 */
public class ProblemException extends RuntimeException {

    private final HttpStatus status;
    private final String code;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private final Map<String, Object> properties = new LinkedHashMap<>();

    public ProblemException(HttpStatus status, String code, String detail) {
        super(detail, null, false, false);
        this.status = status;
        this.code = code;
    }

    public HttpStatus status() {
        return status;
    }

    public String code() {
        return code;
    }

    public Map<String, String> headers() {
        return headers;
    }

    public Map<String, Object> properties() {
        return properties;
    }

    /** Adds a member to the problem document (e.g. {@code errors}). */
    public ProblemException withProperty(String name, Object value) {
        properties.put(name, value);
        return this;
    }

    /** Adds a response header (e.g. {@code Retry-After}) to the problem response. */
    public ProblemException withHeader(String name, String value) {
        headers.put(name, value);
        return this;
    }
}
