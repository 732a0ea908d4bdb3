package com.kvportal.security.web;

import com.kvportal.common.limits.ClientAddress;
import com.kvportal.common.limits.TooManyRequests;
import com.kvportal.common.web.BearerToken;
import com.kvportal.common.web.ProblemException;
import com.kvportal.common.web.Problems;
import com.kvportal.security.ApiKeyAuthenticator;
import com.kvportal.security.Caller;
import com.kvportal.security.Credential;
import com.kvportal.security.EndpointRules;
import com.kvportal.security.SessionCaller;
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

    private final ApiKeyAuthenticator apiKeys;
    private final Problems problems;
    private final EndpointRules rules;

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Optional<Caller> found;
        try {
            found = callerOf(request);
        } catch (TooManyRequests refused) {
            refused.writeTo(response, problems);
            return;
        } catch (ProblemException refused) {
            // a key switched off or used from outside its allowed addresses: its own code, not unauthenticated
            refused.getHeaders().forEach((name, values) -> values.forEach(value -> response.addHeader(name, value)));
            problems.write(response, refused.getBody());
            return;
        }
        found.ifPresent(caller -> {
            var context = SecurityContextHolder.createEmptyContext();
            context.setAuthentication(new CallerAuthentication(caller));
            SecurityContextHolder.setContext(context);
        });
        chain.doFilter(request, response);
    }

    private Optional<Caller> callerOf(HttpServletRequest request) {
        EndpointRules.Match rule = rules.of(request);
        // the storage backend's token is no caller; the usage feature checks it
        if (rule.pathTakes(Credential.USAGE_TOKEN)) {
            return Optional.empty();
        }
        String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (authorization == null) {
            return SessionCaller.of(request);
        }
        // verify takes the key to check as its bearer: it reads the key itself and answers with its own codes
        if (rule.pathTakes(Credential.API_KEY)) {
            return Optional.empty();
        }
        String client = ClientAddress.of(request);
        return BearerToken.of(authorization).flatMap(key -> apiKeys.authenticate(key, client, request.getRemoteAddr()));
    }
}
