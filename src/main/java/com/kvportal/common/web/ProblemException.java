package com.kvportal.common.web;

import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * A failure that the API reports as an RFC 9457 problem with a stable {@code code}: Spring's
 * {@link ErrorResponseException} with its problem document built by {@link Problems#of}, its code and status those
 * of a {@link ProblemCode} constant. Features throw subclasses named for what happened ({@code ApiKeyNotFound},
 * {@code UnknownTier}); Spring MVC answers them as they are, through {@link ProblemAdvice}.
 */
public class ProblemException extends ErrorResponseException {

    private final HttpStatus status;
    private final String code;

    /** The problem of a code, with what happened in this case. */
    public ProblemException(ProblemCode problem, String detail) {
        super(problem.status(), Problems.of(problem, detail), null);
        this.status = problem.status();
        this.code = problem.code();
    }

    /** The problem of a code, with its example detail (when that says all there is to say). */
    public ProblemException(ProblemCode problem) {
        this(problem, problem.getDefinition().exampleDetail());
    }

    /** The problem that {@link Problems} builds (e.g. {@link Problems#unauthenticated()}), thrown. */
    public ProblemException(ProblemDetail problem) {
        super(HttpStatus.valueOf(problem.getStatus()), problem, null);
        this.status = HttpStatus.valueOf(problem.getStatus());
        this.code = String.valueOf(
                problem.getProperties() == null ? null : problem.getProperties().get("code"));
    }

    public HttpStatus status() {
        return status;
    }

    public String code() {
        return code;
    }

    /** The problem's members beyond the standard ones (its {@code code}, {@code errors}, ...). */
    public Map<String, Object> properties() {
        Map<String, Object> properties = getBody().getProperties();
        return properties == null ? Map.of() : properties;
    }

    /** Adds a member to the problem document (e.g. {@code errors}). */
    public ProblemException withProperty(String name, Object value) {
        getBody().setProperty(name, value);
        return this;
    }

    /** Adds a response header (e.g. {@code Retry-After}) to the problem response. */
    public ProblemException withHeader(String name, String value) {
        getHeaders().add(name, value);
        return this;
    }

    /** The problem's detail, as a person reads it. */
    @Override
    public String getMessage() {
        String detail = getBody().getDetail();
        return detail == null ? code : detail;
    }

    /** Expected failures of a request: a stack trace would only cost time on hot paths such as verify. */
    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
