package com.kvportal.common.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import lombok.RequiredArgsConstructor;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Tomcat finds out that a query string or form body cannot be decoded (a bad {@code %} escape, bytes that are not
 * UTF-8), and Spring Security's firewall that a parameter name holds a control character, only when something
 * first asks for a parameter; both then throw, which would surface as a 500 from whichever controller asked.
 * Asking here first makes either a 400 for every endpoint: runs just inside the security filter chain, whose
 * handler answers 400 to the firewall's refusal.
 */
@Component
@Order(SecurityFilterProperties.DEFAULT_FILTER_ORDER + 1)
@RequiredArgsConstructor
class ParameterDecodingFilter extends OncePerRequestFilter {

    private final Problems problems;

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            boolean nul = request.getParameterMap().entrySet().stream()
                    .anyMatch(entry -> entry.getKey().indexOf(0) >= 0
                            || java.util.Arrays.stream(entry.getValue()).anyMatch(value -> value.indexOf(0) >= 0));
            if (nul) {
                problems.write(
                        response,
                        CommonProblem.MALFORMED_PARAMETERS,
                        "The query string or the form body holds a NUL character.");
                return;
            }
        } catch (InvalidParameterException e) {
            HttpStatus status = HttpStatus.resolve(e.getErrorCode());
            if (status == HttpStatus.CONTENT_TOO_LARGE) {
                problems.write(response, Problems.payloadTooLarge(request));
            } else {
                problems.write(
                        response,
                        CommonProblem.MALFORMED_PARAMETERS,
                        "The query string or the form body cannot be decoded.");
            }
            return;
        }
        chain.doFilter(request, response);
    }
}
