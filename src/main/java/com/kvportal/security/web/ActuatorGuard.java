package com.kvportal.security.web;

import com.kvportal.common.LocalTokens;
import com.kvportal.common.web.BearerToken;
import com.kvportal.common.web.RoutedPath;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointProperties;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Every actuator endpoint but health ({@code /actuator/prometheus}, {@code /actuator/info}, any custom one) answers
 * only {@code Authorization: Bearer <METRICS_TOKEN>}; without the token configured, or with a missing or wrong one,
 * it answers 404 exactly as a path that does not exist, so that a scanner learns nothing. Health and its probes stay
 * public. Unset on a bare start, the token is a generated local one ({@link LocalTokens}). Matched on the {@link RoutedPath}, so {@code /%61ctuator/prometheus} is guarded too.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 5)
class ActuatorGuard extends OncePerRequestFilter {

    private final String base;
    private final List<byte[]> token;

    ActuatorGuard(MetricsProperties properties, LocalTokens local, WebEndpointProperties endpoints) {
        this.base = endpoints.getBasePath();
        String token = local.orGenerated(LocalTokens.METRICS_TOKEN, properties.token());
        this.token = token.isBlank() ? List.of() : List.of(BearerToken.digest(token));
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = RoutedPath.of(request);
        // a dot segment (which the firewall refuses later anyway) never counts as health
        return !RoutedPath.isAtOrBelow(path, base)
                || (RoutedPath.isAtOrBelow(path, base + "/health") && !path.contains("/."));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!BearerToken.matchesAny(request.getHeader(HttpHeaders.AUTHORIZATION), token)) {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        chain.doFilter(request, response);
    }
}
