package com.kvportal.security;

import com.kvportal.common.web.BearerToken;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import lombok.RequiredArgsConstructor;
import org.springframework.http.HttpHeaders;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Establishes the caller of a request: an {@code Authorization: Bearer kv_…} header wins and is checked on
 * every request (so a revoked key is refused at once); without the header, the session's caller.
 */
@RequiredArgsConstructor
final class CallerFilter extends OncePerRequestFilter {

    static final String VERIFY_PATH = "/api/v1/api-keys/verify";

    /** Takes the storage backend's token, not a session or an API key; the usage feature checks it. */
    static final String USAGE_REPORTING_PATH = "/api/v1/usage/storage";

    private final ApiKeyAuthenticator apiKeys;

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        callerOf(request).ifPresent(caller -> {
            var context = SecurityContextHolder.createEmptyContext();
            context.setAuthentication(new CallerAuthentication(caller));
            SecurityContextHolder.setContext(context);
        });
        chain.doFilter(request, response);
    }

    private Optional<Caller> callerOf(HttpServletRequest request) {
        if (USAGE_REPORTING_PATH.equals(request.getRequestURI())) {
            return Optional.empty();
        }
        String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (authorization == null) {
            return SessionCaller.of(request);
        }
        // verify reads the key itself and answers with its own codes
        if (VERIFY_PATH.equals(request.getRequestURI())) {
            return Optional.empty();
        }
        return BearerToken.of(authorization).flatMap(apiKeys::authenticate);
    }
}
