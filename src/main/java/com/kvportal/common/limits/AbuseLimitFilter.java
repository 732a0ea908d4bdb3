package com.kvportal.common.limits;

import com.kvportal.common.web.Problems;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import lombok.RequiredArgsConstructor;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Signup and login attempts beyond the {@link LimitProperties} answer 429 {@code too_many_requests} with
 * {@code Retry-After}, before any body is read or password hashed. Verify is not limited: its checksum refuses
 * made-up keys without touching the database. The per-email lock of login ({@code too_many_attempts}) comes on top.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 20)
@RequiredArgsConstructor
class AbuseLimitFilter extends OncePerRequestFilter {

    static final String SIGNUP = "/api/v1/auth/signup";
    static final String LOGIN = "/api/v1/auth/login";

    private final RequestLimits limits;
    private final LimitProperties settings;
    private final Problems problems;

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = request.getRequestURI();
        return !"POST".equals(request.getMethod()) || !(SIGNUP.equals(path) || LOGIN.equals(path));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String client = clientKey(request.getRemoteAddr());
        Optional<Duration> wait;
        if (SIGNUP.equals(request.getRequestURI())) {
            wait = limits.take("signup:" + client, settings.signupsPerAddress(), settings.signupWindow());
        } else {
            wait = limits.take("login:" + client, settings.loginsPerAddress(), settings.loginWindow())
                    .or(() -> limits.take("login:*", settings.loginsOverall(), settings.overallLoginWindow()));
        }
        if (wait.isPresent()) {
            long seconds = Math.max(1, wait.get().toSeconds());
            response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(seconds));
            problems.write(
                    response,
                    HttpStatus.TOO_MANY_REQUESTS,
                    "too_many_requests",
                    "Too many requests from this address; try again in " + seconds + " s.");
            return;
        }
        chain.doFilter(request, response);
    }

    /**
     * The bucket of a client: its IPv4 address, or the /64 network of an IPv6 address (one subscriber usually holds a
     * whole /64, so counting single IPv6 addresses would let a client rotate through millions).
     */
    static String clientKey(String address) {
        if (address.indexOf(':') < 0) {
            return address;
        }
        try {
            byte[] bytes = InetAddress.getByName(address).getAddress();
            if (bytes.length == 16) {
                return HexFormat.of().formatHex(bytes, 0, 8) + "::/64";
            }
            return InetAddress.getByAddress(bytes).getHostAddress();
        } catch (UnknownHostException e) {
            return address;
        }
    }
}
