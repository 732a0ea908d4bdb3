package com.kvportal.usage.web;

import com.kvportal.common.web.Problems;
import com.kvportal.security.Credential;
import com.kvportal.security.EndpointRules;
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
 * An endpoint that takes the storage backend's token ({@link Credential#USAGE_TOKEN}: usage reporting) takes it and
 * nothing else (no session, no API key): a request without one of the tokens answers 401 {@code unauthenticated}
 * before its body is read. Which endpoints those are, the endpoints' rules say ({@link EndpointRules}).
 */
@Configuration(proxyBeanMethods = false)
public class ReportingAuthentication {

    @Bean
    FilterRegistrationBean<OncePerRequestFilter> reportingTokenFilter(
            ReportingTokens tokens, Problems problems, EndpointRules rules) {
        OncePerRequestFilter filter = new OncePerRequestFilter() {
            @Override
            protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                    throws ServletException, IOException {
                // other methods go on to their 405
                if (!rules.of(request)
                                .exact()
                                .filter(rule -> rule.takes(Credential.USAGE_TOKEN))
                                .isPresent()
                        || tokens.accepts(request.getHeader(HttpHeaders.AUTHORIZATION))) {
                    chain.doFilter(request, response);
                    return;
                }
                response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
                problems.write(response, Problems.unauthenticatedReporter());
            }
        };
        FilterRegistrationBean<OncePerRequestFilter> registration = new FilterRegistrationBean<>(filter);
        registration.setName("usageReportingToken");
        return registration;
    }
}
