package com.kvportal.common.web;

import java.io.IOException;
import java.io.Writer;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

/**
 * Tomcat's last word on an error that never reached the application, e.g. a URI the connector refuses
 * ({@code %2F}, {@code %5C}, {@code %00}): a problem document instead of Tomcat's HTML page.
 */
final class ProblemErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int statusCode = response.getStatus();
        // as Tomcat's own valve: only an unreported error whose body nobody has written yet
        if (statusCode < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        HttpStatus status = HttpStatus.resolve(statusCode);
        if (status == null) {
            status = HttpStatus.BAD_REQUEST;
        }
        String code = Problems.defaultCode(status);
        String body = "{\"type\":\"https://kv-portal.dev/problems/" + code + "\",\"title\":\""
                + status.getReasonPhrase()
                + "\",\"status\":" + status.value() + ",\"detail\":\"" + status.getReasonPhrase() + "\",\"code\":\""
                + code + "\"}";
        try {
            // the body is ASCII; no charset parameter, as every problem of the API
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write(body);
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // the client is gone or the response is unusable: nothing more to say
        }
    }
}
