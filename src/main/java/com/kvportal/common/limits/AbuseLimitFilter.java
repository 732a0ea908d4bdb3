package com.kvportal.common.limits;

import com.kvportal.common.web.Problems;
import com.kvportal.common.web.RoutedPath;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The one place that decides which path limits a request meets, on its {@link RoutedPath} (a percent-encoded letter
 * reaches the same endpoint, so it meets the same limit). Signup and login attempts beyond the {@link LimitProperties}
 * answer 429 {@code too_many_requests} with {@code Retry-After}, before any body is read or password hashed: per
 * client address first; the overall login circuit then counts only addresses that are not known (nobody signed up or
 * logged in from them lately), so that a flood cannot lock customers out of their own address. A login's second step
 * (the TOTP or recovery code) takes from the same per-address budget as the password step; it costs no password hash,
 * so the overall circuit leaves it alone. Verify's budget is per lookup that misses ({@link MissBudget}); the
 * per-email lock of login and the per-customer lock of codes ({@code too_many_attempts}) come on top.
 * Password reset requests beyond {@code kvportal.limits.password-resets-per-address} per client address are refused from this
 * instance's memory ({@link LocalBuckets}), so that a flood from one client costs neither a query nor a thread for
 * long; the exact limits, across instances, are counted in the database behind it.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 20)
class AbuseLimitFilter extends OncePerRequestFilter {

    static final String SIGNUP = "/api/v1/auth/signup";
    static final String LOGIN = "/api/v1/auth/login";
    static final String LOGIN_SECOND_STEP = "/api/v1/auth/login/totp";
    static final String PASSWORD_RESET = "/api/v1/auth/password-reset";

    private final RequestLimits limits;
    private final KnownAddresses known;
    private final LimitProperties settings;
    private final Problems problems;
    private final LocalBuckets resets;

    AbuseLimitFilter(RequestLimits limits, KnownAddresses known, LimitProperties settings, Problems problems) {
        this.limits = limits;
        this.known = known;
        this.settings = settings;
        this.problems = problems;
        this.resets = new LocalBuckets(settings.passwordResetsPerAddress(), settings.passwordResetWindow());
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = RoutedPath.of(request);
        return !"POST".equals(request.getMethod())
                || !(SIGNUP.equals(path)
                        || LOGIN.equals(path)
                        || LOGIN_SECOND_STEP.equals(path)
                        || PASSWORD_RESET.equals(path));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String client = ClientAddress.of(request);
        Optional<Duration> wait;
        String path = RoutedPath.of(request);
        if (PASSWORD_RESET.equals(path)) {
            // no query: a flood from one client is answered here, before its bodies are even read
            wait = resets.take(client);
        } else if (SIGNUP.equals(path)) {
            wait = limits.take("signup:" + client, settings.signupsPerAddress(), settings.signupWindow());
        } else if (LOGIN_SECOND_STEP.equals(path)) {
            wait = limits.take("login:" + client, settings.loginsPerAddress(), settings.loginWindow());
        } else {
            wait = limits.take("login:" + client, settings.loginsPerAddress(), settings.loginWindow())
                    .or(() -> known.isKnown(client)
                            ? Optional.empty()
                            : limits.take("login:*", settings.loginsOverall(), settings.overallLoginWindow()));
        }
        if (wait.isPresent()) {
            new TooManyRequests(wait.get()).writeTo(response, problems);
            return;
        }
        chain.doFilter(request, response);
        if (response.getStatus() / 100 == 2) {
            known.remember(client);
        }
    }
}
