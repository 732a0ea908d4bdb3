package com.kvportal.common.web;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import lombok.AccessLevel;
import lombok.RequiredArgsConstructor;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Builds every problem document of the API, so that controllers, filters and the security layer all
 * answer in one shape: {@code {type, title, status, detail, code}}.
 */
@Component
@RequiredArgsConstructor(access = AccessLevel.PACKAGE)
public class Problems {

    private static final String TYPE_BASE = "https://kv-portal.dev/problems/";

    private final JsonMapper json;

    public static ProblemDetail of(HttpStatus status, String code, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(URI.create(TYPE_BASE + code));
        problem.setProperty("code", code);
        return problem;
    }

    public static ProblemDetail validation(String detail, List<Map<String, String>> errors) {
        ProblemDetail problem = of(HttpStatus.BAD_REQUEST, "validation_failed", detail);
        problem.setProperty("errors", errors);
        return problem;
    }

    /** 503: the database cannot be reached (stopped, restarting, out of connections); worth retrying soon. */
    public static ProblemDetail databaseUnavailable() {
        return of(
                HttpStatus.SERVICE_UNAVAILABLE,
                "database_unavailable",
                "The database is unavailable at the moment; retry in a few seconds.");
    }

    /** The code of a problem that only its status describes (404, 405, 415, ...). */
    public static String defaultCode(HttpStatus status) {
        return switch (status) {
            case NOT_FOUND -> "not_found";
            case METHOD_NOT_ALLOWED -> "method_not_allowed";
            case UNSUPPORTED_MEDIA_TYPE -> "unsupported_media_type";
            case NOT_ACCEPTABLE -> "not_acceptable";
            case CONTENT_TOO_LARGE -> "payload_too_large";
            case UNAUTHORIZED -> "unauthenticated";
            case INTERNAL_SERVER_ERROR -> "internal_error";
            default -> status.name().toLowerCase();
        };
    }

    /** Writes a problem outside Spring MVC (servlet filters, the security layer). */
    public void write(HttpServletResponse response, ProblemDetail problem) throws IOException {
        response.setStatus(problem.getStatus());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setCharacterEncoding("UTF-8");
        json.writeValue(response.getOutputStream(), problem);
    }

    public void write(HttpServletResponse response, HttpStatus status, String code, String detail) throws IOException {
        write(response, of(status, code, detail));
    }
}
