package com.kvportal.common.web;

import com.kvportal.common.database.DatabaseFailures;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import lombok.RequiredArgsConstructor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The outermost filter: a database that is away, met outside Spring MVC (the JDBC session store, the API key
 * lookup of the security chain), answers 503 {@code database_unavailable} with {@code Retry-After} like it does
 * inside ({@link ProblemAdvice}), instead of reaching the container as a 500.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
@RequiredArgsConstructor
class DatabaseUnavailableFilter extends OncePerRequestFilter {

    private static final Logger log = LoggerFactory.getLogger(DatabaseUnavailableFilter.class);

    private final Problems problems;

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            chain.doFilter(request, response);
        } catch (ServletException | IOException | RuntimeException e) {
            if (!DatabaseFailures.isUnavailable(e)) {
                throw e;
            }
            log.warn(
                    "The database is unavailable ({} {}): {}",
                    request.getMethod(),
                    request.getRequestURI(),
                    ProblemAdvice.rootMessage(e));
            if (response.isCommitted()) {
                return;
            }
            response.reset();
            response.setHeader(HttpHeaders.RETRY_AFTER, Integer.toString(DatabaseFailures.RETRY_AFTER_SECONDS));
            problems.write(response, Problems.databaseUnavailable());
        }
    }

    @Override
    protected boolean shouldNotFilterErrorDispatch() {
        return false;
    }
}
