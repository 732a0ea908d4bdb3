package com.kvportal.usage.web;

import com.kvportal.common.web.Problems;
import com.kvportal.usage.reporting.ReportingTokens;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The reporting endpoint takes the storage backend's token and nothing else (no session, no API key): a request
 * without one of the tokens answers 401 {@code unauthenticated} before its body is read.
 */
@Configuration(proxyBeanMethods = false)
public class ReportingAuthentication {

    static final String REPORTING_PATH = "/api/v1/usage/storage";

    @Bean
    FilterRegistrationBean<OncePerRequestFilter> reportingTokenFilter(ReportingTokens tokens, Problems problems) {
        OncePerRequestFilter filter = new OncePerRequestFilter() {
            @Override
            protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                    throws ServletException, IOException {
                // other methods go on to their 405
                if (!"POST".equals(request.getMethod())
                        || tokens.accepts(request.getHeader(HttpHeaders.AUTHORIZATION))) {
                    chain.doFilter(request, response);
                    return;
                }
                response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
                problems.write(response, Problems.unauthenticatedReporter());
            }
        };
        FilterRegistrationBean<OncePerRequestFilter> registration = new FilterRegistrationBean<>(filter);
        registration.addUrlPatterns(REPORTING_PATH);
        registration.setName("usageReportingToken");
        return registration;
    }
}
