package com.kvportal.common.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import lombok.AccessLevel;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
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

    /** The problem of a code, with what happened in this case. */
    public static ProblemDetail of(ProblemCode problem, String detail) {
        return of(problem.status(), problem.code(), detail);
    }

    /** A problem whose code only its status describes (see {@link #defaultCode}); else {@link #of(ProblemCode, String)}. */
    static ProblemDetail of(HttpStatus status, String code, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(URI.create(TYPE_BASE + code));
        problem.setProperty("code", code);
        return problem;
    }

    public static ProblemDetail validation(String detail, List<Map<String, String>> errors) {
        ProblemDetail problem = of(CommonProblem.VALIDATION_FAILED, detail);
        problem.setProperty("errors", errors);
        return problem;
    }

    /** 503: the database cannot be reached (stopped, restarting, out of connections); worth retrying soon. */
    public static ProblemDetail databaseUnavailable() {
        return of(
                CommonProblem.DATABASE_UNAVAILABLE,
                "The database is unavailable at the moment; retry in a few seconds.");
    }

    /**
     * 401: no credential, or one that is not valid; the one wording of {@code unauthenticated}, whichever layer
     * answers it (send with {@code WWW-Authenticate: Bearer}).
     */
    public static ProblemDetail unauthenticated() {
        return of(
                CommonProblem.UNAUTHENTICATED,
                CommonProblem.UNAUTHENTICATED.getDefinition().exampleDetail());
    }

    /**
     * 401 on usage reporting, the storage backend's call: names the token it takes (and only there: a person signed
     * in to the dashboard never set up that token, see {@link #unauthenticated()}).
     */
    public static ProblemDetail unauthenticatedReporter() {
        return of(
                CommonProblem.UNAUTHENTICATED,
                "Send Authorization: Bearer with one of the tokens set in USAGE_API_TOKEN (the storage backend's).");
    }

    /** 413: the body is over the limit of the request's endpoint; names the limit (and, to a usage report, the cure). */
    public static ProblemDetail payloadTooLarge(HttpServletRequest request) {
        return of(
                CommonProblem.PAYLOAD_TOO_LARGE,
                payloadTooLargeDetail(
                        BodyLimit.of(request).bytes(), BodyLimit.of(request).fewerSamples()));
    }

    static String payloadTooLargeDetail(long limit, boolean fewerSamples) {
        return "The request body is larger than " + limit / 1024 + " KiB: send at most " + limit / 1024 + " KiB"
                + (fewerSamples ? ", reporting fewer samples per request." : ".");
    }

    /** 400: the body is missing, is not JSON, or is not valid Unicode text (see {@link StrictTextFilter}). */
    public static ProblemDetail malformedJson() {
        return of(
                CommonProblem.MALFORMED_JSON,
                CommonProblem.MALFORMED_JSON.getDefinition().exampleDetail());
    }

    /** 400 {@code malformed_json}: an object of the body holds {@code key} twice; nobody can tell which was meant. */
    public static ProblemDetail duplicateKey(String key) {
        return of(
                CommonProblem.MALFORMED_JSON,
                "The request body holds the key \"" + key + "\" twice in one object: send each key once.");
    }

    /** 415: the body is not JSON; names what to send. {@code sent}: the Content-Type sent, or null for none. */
    public static ProblemDetail unsupportedMediaType(@Nullable String sent) {
        return of(CommonProblem.UNSUPPORTED_MEDIA_TYPE, unsupportedMediaTypeDetail(sent));
    }

    static String unsupportedMediaTypeDetail(@Nullable String sent) {
        return (sent == null || sent.isBlank()
                        ? "The request has no Content-Type"
                        : "Content-Type '" + sent + "' is not supported")
                + ": send the body as JSON with Content-Type: application/json.";
    }

    /** 404: no endpoint answers this path; says where the endpoints are listed. */
    public static ProblemDetail notFound(String method, String path) {
        return of(
                CommonProblem.NOT_FOUND,
                "No endpoint answers " + method + " " + path + "; the endpoints are listed in the OpenAPI document at"
                        + " /v3/api-docs.");
    }

    /** 405: the path exists but takes other methods; names them (the answer's {@code Allow} header lists them too). */
    public static ProblemDetail methodNotAllowed(String method, Collection<String> allowed) {
        return of(
                HttpStatus.METHOD_NOT_ALLOWED,
                "method_not_allowed",
                method + " is not allowed on this path; send " + String.join(" or ", allowed) + ".");
    }

    /** The code of a problem that only its status describes (404, 405, 415, ...). */
    public static String defaultCode(HttpStatus status) {
        return switch (status) {
            case NOT_FOUND -> CommonProblem.NOT_FOUND.code();
            case METHOD_NOT_ALLOWED -> "method_not_allowed";
            case UNSUPPORTED_MEDIA_TYPE -> CommonProblem.UNSUPPORTED_MEDIA_TYPE.code();
            case NOT_ACCEPTABLE -> "not_acceptable";
            case CONTENT_TOO_LARGE -> CommonProblem.PAYLOAD_TOO_LARGE.code();
            case UNAUTHORIZED -> CommonProblem.UNAUTHENTICATED.code();
            case INTERNAL_SERVER_ERROR -> "internal_error";
            case REQUEST_HEADER_FIELDS_TOO_LARGE -> "headers_too_large";
            default -> status.name().toLowerCase();
        };
    }

    /** Writes a problem outside Spring MVC (servlet filters, the security layer). */
    public void write(HttpServletResponse response, ProblemDetail problem) throws IOException {
        response.setStatus(problem.getStatus());
        // JSON is UTF-8 (RFC 8259): no charset parameter, the same Content-Type as Spring MVC's problem answers
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        json.writeValue(response.getOutputStream(), problem);
    }

    public void write(HttpServletResponse response, ProblemCode problem, String detail) throws IOException {
        write(response, of(problem, detail));
    }
}
