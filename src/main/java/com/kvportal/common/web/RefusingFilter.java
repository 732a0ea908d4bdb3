package com.kvportal.common.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.ProblemDetail;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A check at the HTTP edge, before anything acts on a request: it refuses the request with a problem, or passes it
 * on, perhaps with its body checked as it is read ({@link CheckedBody}). The filters that guard the edge each say
 * only what they refuse and how the rest of the chain reads the request; writing the refusal is done here.
 */
abstract class RefusingFilter extends OncePerRequestFilter {

    private @Nullable Problems problems;

    /** Set by Spring (the filters take nothing else, so none needs a constructor of its own). */
    @Autowired
    final void setProblems(Problems problems) {
        this.problems = problems;
    }

    @Override
    protected final void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        ProblemDetail refusal = refusal(request, response);
        if (refusal != null) {
            Objects.requireNonNull(problems, "problems").write(response, refusal);
            return;
        }
        chain.doFilter(passed(request), response);
    }

    /** The problem that refuses this request, or null to pass it on; may set a header of the answer. */
    abstract @Nullable ProblemDetail refusal(HttpServletRequest request, HttpServletResponse response);

    /** The request as the rest of the chain reads it: by default as it came. */
    HttpServletRequest passed(HttpServletRequest request) {
        return request;
    }
}
