package com.kvportal.security.web;

import com.kvportal.common.web.RoutedPath;
import com.kvportal.security.Caller;
import jakarta.servlet.http.HttpServletRequest;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.http.HttpMethod;
import org.springframework.security.authorization.AuthorizationDecision;
import org.springframework.security.authorization.AuthorizationManager;
import org.springframework.security.authorization.AuthorizationResult;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.access.intercept.RequestAuthorizationContext;

/**
 * Portal calls: a session may make any of them; an API key needs {@code admin}, except that any key may
 * revoke itself.
 */
final class PortalAccess implements AuthorizationManager<RequestAuthorizationContext> {

    private static final String KEYS_PATH = "/api/v1/api-keys/";

    @Override
    public AuthorizationResult authorize(
            Supplier<? extends Authentication> authentication, RequestAuthorizationContext context) {
        if (!(authentication.get().getPrincipal() instanceof Caller caller)) {
            return new AuthorizationDecision(false);
        }
        return new AuthorizationDecision(
                !caller.viaApiKey() || caller.can("admin") || isSelfRevocation(caller, context.getRequest()));
    }

    /** Whether the request is a key revoking itself ({@code DELETE /api/v1/api-keys/{its own id}}). */
    static boolean isSelfRevocation(Caller caller, HttpServletRequest request) {
        String uri = RoutedPath.of(request);
        if (!HttpMethod.DELETE.matches(request.getMethod()) || !uri.startsWith(KEYS_PATH)) {
            return false;
        }
        // compared as UUIDs, as the revoke endpoint reads the id: an upper-case id names the same key
        try {
            return UUID.fromString(uri.substring(KEYS_PATH.length())).equals(caller.apiKeyId());
        } catch (IllegalArgumentException notAnId) {
            return false;
        }
    }
}
