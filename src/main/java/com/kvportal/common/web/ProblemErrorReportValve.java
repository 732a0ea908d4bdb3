package com.kvportal.common.web;

import java.io.IOException;
import java.io.Writer;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.http11.Http11InputBuffer;
import org.apache.tomcat.util.res.StringManager;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import tools.jackson.core.io.JsonStringEncoder;

/**
 * Tomcat's last word on an error that never reached the application: a request line it cannot parse, a URI the
 * connector refuses ({@code %2F}, {@code %5C}, {@code %00}), headers over the limit. A problem document saying what to
 * send instead, not Tomcat's HTML page.
 */
final class ProblemErrorReportValve extends ErrorReportValve {

    /** Tomcat's own words for headers over the limit, in the language it logs in. */
    private static final String HEADERS_TOO_LARGE =
            StringManager.getManager(Http11InputBuffer.class).getString("iib.requestheadertoolarge.error");

    @Override
    protected void report(Request request, Response response, @Nullable Throwable throwable) {
        int statusCode = response.getStatus();
        // as Tomcat's own valve: only an unreported error whose body nobody has written yet
        if (statusCode < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        ProblemDetail problem = problem(statusCode, request.getRequestURI(), throwable);
        try {
            response.setStatus(problem.getStatus());
            // the body is ASCII; no charset parameter, as every problem of the API
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write(json(problem));
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // the client is gone or the response is unusable: nothing more to say
        }
    }

    private static ProblemDetail problem(int statusCode, @Nullable String path, @Nullable Throwable throwable) {
        if (throwable instanceof IllegalArgumentException && HEADERS_TOO_LARGE.equals(throwable.getMessage())) {
            return RefusedRequests.headersTooLarge();
        }
        HttpStatus status = HttpStatus.resolve(statusCode);
        if (status == null || status == HttpStatus.BAD_REQUEST) {
            return RefusedRequests.badPath(path);
        }
        return Problems.of(status, Problems.defaultCode(status), status.getReasonPhrase());
    }

    /** The problem as Spring MVC writes one, without a mapper: Tomcat answers here before any bean is at hand. */
    private static String json(ProblemDetail problem) {
        return "{\"type\":" + quoted(String.valueOf(problem.getType())) + ",\"title\":" + quoted(problem.getTitle())
                + ",\"status\":" + problem.getStatus() + ",\"detail\":" + quoted(problem.getDetail()) + ",\"code\":"
                + quoted(String.valueOf(problem.getProperties().get("code"))) + "}";
    }

    private static String quoted(@Nullable String text) {
        StringBuilder quoted = new StringBuilder("\"");
        JsonStringEncoder.getInstance().quoteAsString(text == null ? "" : text, quoted);
        return quoted.append('"').toString();
    }
}
