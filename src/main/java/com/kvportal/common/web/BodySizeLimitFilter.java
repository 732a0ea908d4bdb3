package com.kvportal.common.web;

import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;

/**
 * Refuses a request body over its endpoint's limit ({@link BodyLimit}: 64 KiB unless the endpoint declares more) with
 * 413, before anything reads it: by the declared length when there is one, and by counting the bytes of a chunked
 * body.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
class BodySizeLimitFilter extends RefusingFilter {

    @Override
    @Nullable
    ProblemDetail refusal(HttpServletRequest request, HttpServletResponse response) {
        if (request.getContentLengthLong() <= BodyLimit.of(request).bytes()) {
            return null;
        }
        response.setHeader("Connection", "close");
        return Problems.payloadTooLarge(request);
    }

    @Override
    HttpServletRequest passed(HttpServletRequest request) {
        long limit = BodyLimit.of(request).bytes();
        return CheckedBody.of(request, body -> new LimitedStream(body, limit));
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
