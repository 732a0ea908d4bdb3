package com.kvportal.security;

import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpMethod;

/**
 * Who may call one endpoint (an HTTP method on a path pattern) and what it may be sent, as its handler's {@link
 * ApiContract} declares it.
 *
 * @param operation the handler method's name (the operationId)
 * @param credentials the credentials it accepts, any one of them; empty: a public call
 * @param permission with {@link Credential#PORTAL}: what the caller's role must allow
 * @param maxBodyBytes the most bytes its request body may hold
 */
public record EndpointRule(
        HttpMethod method,
        String pattern,
        String operation,
        Set<Credential> credentials,
        @Nullable Permission permission,
        long maxBodyBytes) {

    private static final Set<HttpMethod> SAFE_METHODS =
            Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS, HttpMethod.TRACE);

    public EndpointRule {
        credentials = Set.copyOf(credentials);
    }

    static EndpointRule of(HttpMethod method, String pattern, String operation, ApiContract contract) {
        return new EndpointRule(
                method,
                pattern,
                operation,
                Set.of(contract.credentials()),
                contract.permission().length == 1 ? contract.permission()[0] : null,
                contract.maxBodyKiB() * 1024L);
    }

    public boolean takes(Credential credential) {
        return credentials.contains(credential);
    }

    /** A portal call: a session or an admin key, checked before the handler runs ({@code web.PortalAccess}). */
    public boolean portal() {
        return takes(Credential.PORTAL);
    }

    /** A call that changes state: what a session must send {@code X-XSRF-TOKEN} for, unless it is public. */
    public boolean changesState() {
        return !SAFE_METHODS.contains(method);
    }
}
