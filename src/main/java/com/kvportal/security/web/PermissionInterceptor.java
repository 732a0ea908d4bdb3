package com.kvportal.security.web;

import com.kvportal.common.web.ProblemException;
import com.kvportal.common.web.Problems;
import com.kvportal.security.ApiContract;
import com.kvportal.security.Caller;
import com.kvportal.security.CallerRoles;
import com.kvportal.security.Credential;
import com.kvportal.security.EmailVerifications;
import com.kvportal.security.InsufficientRole;
import com.kvportal.security.Memberships;
import com.kvportal.security.Permission;
import com.kvportal.security.SessionCaller;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Arrays;
import java.util.Optional;
import lombok.RequiredArgsConstructor;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Enforces each portal operation's declaration, {@link ApiContract#credentials()}, {@link ApiContract#permission()}
 * and {@link ApiContract#verifiedEmail()}, on every request: a caller is required; the caller's role in the current
 * organization, read from the membership now ({@link CallerRoles}), must be one the permission lists, else 403 {@code
 * insufficient_role} (an API key needs its role for every portal call, its own revocation aside); then, where
 * declared, a verified email address, else 403 {@code email_unverified}. A portal operation that declares no
 * permission is refused (fail closed).
 */
@RequiredArgsConstructor
final class PermissionInterceptor implements HandlerInterceptor {

    private final Memberships memberships;
    private final CallerRoles roles;
    private final EmailVerifications emails;

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (!(handler instanceof HandlerMethod method)) {
            return true;
        }
        ApiContract contract = method.getMethodAnnotation(ApiContract.class);
        if (contract == null || !Arrays.asList(contract.credentials()).contains(Credential.PORTAL)) {
            return true;
        }
        Caller caller = currentCaller().orElseThrow(() -> new ProblemException(Problems.unauthenticated())
                .withHeader("WWW-Authenticate", "Bearer"));
        if (contract.permission().length != 1) {
            throw new InsufficientRole("This operation declares no permission.");
        }
        Permission permission = contract.permission()[0];
        if (caller.viaApiKey()) {
            // any key may revoke itself, even one whose creator no longer runs the organization
            if (!PortalAccess.isSelfRevocation(caller, request)) {
                roles.require(caller, permission);
            }
        } else if (permission.needsMembership()) {
            roles.require(caller, permission);
        } else {
            moveOn(request, caller);
        }
        if (contract.verifiedEmail() && !emails.emailVerified(caller.customerId())) {
            throw new EmailUnverified();
        }
        return true;
    }

    /**
     * The customer's own calls: a session left in an organization the customer no longer belongs to moves on (so
     * that nothing of theirs lands in that organization's audit log any more).
     */
    private void moveOn(HttpServletRequest request, Caller caller) {
        Caller current = memberships.current(caller);
        if (!current.equals(caller)) {
            SessionCaller.update(request, current);
            var context = SecurityContextHolder.createEmptyContext();
            context.setAuthentication(new CallerAuthentication(current));
            SecurityContextHolder.setContext(context);
        }
    }

    private static Optional<Caller> currentCaller() {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        return authentication != null && authentication.getPrincipal() instanceof Caller caller
                ? Optional.of(caller)
                : Optional.empty();
    }
}
