package com.kvportal.common.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;

/**
 * Tomcat finds out that a query string or form body cannot be decoded (a bad {@code %} escape, bytes that are not
 * UTF-8), and Spring Security's firewall that a parameter name holds a control character, only when something
 * first asks for a parameter; both then throw, which would surface as a 500 from whichever controller asked.
 * Asking here first makes either a 400 for every endpoint: runs just inside the security filter chain, whose
 * handler answers 400 to the firewall's refusal.
 */
@Component
@Order(SecurityFilterProperties.DEFAULT_FILTER_ORDER + 1)
class ParameterDecodingFilter extends RefusingFilter {

    @Override
    @Nullable
    ProblemDetail refusal(HttpServletRequest request, HttpServletResponse response) {
        try {
            boolean nul = request.getParameterMap().entrySet().stream()
                    .anyMatch(entry -> entry.getKey().indexOf(0) >= 0
                            || java.util.Arrays.stream(entry.getValue()).anyMatch(value -> value.indexOf(0) >= 0));
            return nul
                    ? Problems.of(
                            CommonProblem.MALFORMED_PARAMETERS,
                            "The query string or the form body holds a NUL character.")
                    : null;
        } catch (InvalidParameterException e) {
            HttpStatus status = HttpStatus.resolve(e.getErrorCode());
            return status == HttpStatus.CONTENT_TOO_LARGE
                    ? Problems.payloadTooLarge(request)
                    : Problems.of(
                            CommonProblem.MALFORMED_PARAMETERS, "The query string or the form body cannot be decoded.");
        }
    }
}
