package com.kvportal.common.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import lombok.RequiredArgsConstructor;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses request bodies over 64 KiB (the webhook and usage reporting: 1 MiB) with 413, before anything reads them: by the
 * declared length when there is one, and by counting the bytes of a chunked body.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
@RequiredArgsConstructor
class BodySizeLimitFilter extends OncePerRequestFilter {

    static final long API_LIMIT = 64 * 1024;
    static final long WEBHOOK_LIMIT = 1024 * 1024;
    private static final String WEBHOOK_PATH = "/api/v1/billing/webhook";
    /** A report of 1,000 samples is about 130 KiB. */
    private static final String USAGE_REPORTING_PATH = "/api/v1/usage/storage";

    private final Problems problems;

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long limit = limitOf(request);
        if (request.getContentLengthLong() > limit) {
            response.setHeader("Connection", "close");
            problems.write(response, Problems.payloadTooLarge(request));
            return;
        }
        chain.doFilter(CheckedBody.of(request, body -> new LimitedStream(body, limit)), response);
    }

    /** The most bytes a body sent to the request's path may hold. */
    static long limitOf(HttpServletRequest request) {
        String path = RoutedPath.of(request);
        return WEBHOOK_PATH.equals(path) || USAGE_REPORTING_PATH.equals(path) ? WEBHOOK_LIMIT : API_LIMIT;
    }

    /** A usage report, the storage backend's call: the one body a sender can shrink by sending fewer samples. */
    static boolean isUsageReport(HttpServletRequest request) {
        return USAGE_REPORTING_PATH.equals(RoutedPath.of(request));
    }

    /** Thrown while reading a body that turns out larger than the limit. */
    static final class BodyTooLarge extends IOException {
        BodyTooLarge(long limit) {
            super("request body larger than " + limit + " bytes");
        }
    }

    private static final class LimitedStream extends CheckedBody.Stream {
        private final long limit;
        private long read;

        LimitedStream(ServletInputStream delegate, long limit) {
            super(delegate);
            this.limit = limit;
        }

        @Override
        void check(int b) throws BodyTooLarge {
            count(1);
        }

        @Override
        void check(byte[] buffer, int offset, int length) throws BodyTooLarge {
            count(length);
        }

        private void count(int n) throws BodyTooLarge {
            read += n;
            if (read > limit) {
                throw new BodyTooLarge(limit);
            }
        }
    }
}
