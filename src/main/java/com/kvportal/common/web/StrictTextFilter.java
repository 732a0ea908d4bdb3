package com.kvportal.common.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Locale;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Text that is not valid Unicode is refused, never repaired: a JSON body is checked byte by byte as it is read, and
 * malformed UTF-8 (overlong forms such as {@code C0 AF}, encoded surrogates, truncated sequences), a lone UTF-16
 * surrogate escape ({@code "\ud800"}) or a NUL ({@code "\u0000"}, or a raw 0 byte) anywhere in it makes the read
 * fail with {@link MalformedText}, which answers 400 {@code malformed_json}. Jackson alone would decode {@code C0 AF}
 * as {@code /} and PostgreSQL would store a lone surrogate as {@code ?}: two different inputs colliding.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 11)
class StrictTextFilter extends OncePerRequestFilter {

    private final Problems problems;

    StrictTextFilter(Problems problems) {
        this.problems = problems;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String type = request.getContentType();
        if (type == null) {
            chain.doFilter(new CheckedRequest(request), response);
            return;
        }
        String mediaType = type.toLowerCase(Locale.ROOT).strip();
        // a body's type is concrete; Spring MVC would fail on "*/*" or "application/*" with a 500
        if (mediaType.startsWith("*") || mediaType.matches("^[^/;]*/\\*.*")) {
            problems.write(
                    response,
                    HttpStatus.UNSUPPORTED_MEDIA_TYPE,
                    "unsupported_media_type",
                    "A request body needs a concrete Content-Type, not a wildcard.");
            return;
        }
        // forms and multipart are decoded by Tomcat, which refuses undecodable bytes itself
        if (mediaType.startsWith("application/x-www-form-urlencoded") || mediaType.startsWith("multipart/")) {
            chain.doFilter(request, response);
            return;
        }
        chain.doFilter(new CheckedRequest(request), response);
    }

    /** Thrown while reading a body that is not valid Unicode text. */
    static final class MalformedText extends IOException {
        MalformedText(String what) {
            super(what);
        }
    }

    private static final class CheckedRequest extends HttpServletRequestWrapper {
        private ServletInputStream stream;

        CheckedRequest(HttpServletRequest request) {
            super(request);
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                stream = new CheckedStream(super.getInputStream());
            }
            return stream;
        }
    }

    /** Validates UTF-8 (RFC 3629) and the escapes of JSON strings on the fly. */
    static final class CheckedStream extends ServletInputStream {
        private final ServletInputStream delegate;
        // UTF-8: continuation bytes still expected, and the range the next one must fall in
        private int need;
        private int low = 0x80;
        private int high = 0xBF;
        // JSON: inside a string, after a backslash (1) or within \\uXXXX (2), the escape's value so far
        private boolean inString;
        private int escape;
        private int hexDigits;
        private int codeUnit;
        private boolean pendingHighSurrogate;

        CheckedStream(ServletInputStream delegate) {
            this.delegate = delegate;
        }

        @Override
        public int read() throws IOException {
            int b = delegate.read();
            if (b < 0) {
                end();
            } else {
                check(b);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = delegate.read(buffer, offset, length);
            if (n < 0) {
                end();
            }
            for (int i = 0; i < n; i++) {
                check(buffer[offset + i] & 0xFF);
            }
            return n;
        }

        private void end() throws MalformedText {
            if (need > 0) {
                throw new MalformedText("the body ends inside a UTF-8 sequence");
            }
        }

        void check(int b) throws MalformedText {
            utf8(b);
            if (b >= 0x80) {
                if (pendingHighSurrogate) {
                    throw new MalformedText("a lone UTF-16 surrogate escape");
                }
                return;
            }
            if (b == 0) {
                throw new MalformedText("a NUL byte");
            }
            json(b);
        }

        private void utf8(int b) throws MalformedText {
            if (need == 0) {
                if (b < 0x80) {
                    return;
                }
                if (b >= 0xC2 && b <= 0xDF) {
                    need = 1;
                } else if (b >= 0xE0 && b <= 0xEF) {
                    need = 2;
                    low = b == 0xE0 ? 0xA0 : 0x80; // no overlong forms
                    high = b == 0xED ? 0x9F : 0xBF; // no encoded surrogates
                } else if (b >= 0xF0 && b <= 0xF4) {
                    need = 3;
                    low = b == 0xF0 ? 0x90 : 0x80;
                    high = b == 0xF4 ? 0x8F : 0xBF; // nothing beyond U+10FFFF
                } else {
                    throw new MalformedText("malformed UTF-8");
                }
                return;
            }
            if (b < low || b > high) {
                throw new MalformedText("malformed UTF-8");
            }
            need--;
            low = 0x80;
            high = 0xBF;
        }

        private void json(int b) throws MalformedText {
            if (!inString) {
                inString = b == '"';
                return;
            }
            if (escape == 0) {
                if (pendingHighSurrogate && b != '\\') {
                    throw new MalformedText("a lone UTF-16 surrogate escape");
                }
                if (b == '\\') {
                    escape = 1;
                } else if (b == '"') {
                    inString = false;
                }
                return;
            }
            if (escape == 1) {
                if (b == 'u') {
                    escape = 2;
                    hexDigits = 0;
                    codeUnit = 0;
                } else if (pendingHighSurrogate) {
                    throw new MalformedText("a lone UTF-16 surrogate escape");
                } else {
                    escape = 0;
                }
                return;
            }
            int digit = Character.digit(b, 16);
            if (digit < 0) {
                // not JSON: the parser will say so
                escape = 0;
                return;
            }
            codeUnit = codeUnit * 16 + digit;
            if (++hexDigits < 4) {
                return;
            }
            escape = 0;
            if (codeUnit == 0) {
                throw new MalformedText("a NUL character");
            }
            boolean highSurrogate = codeUnit >= 0xD800 && codeUnit <= 0xDBFF;
            boolean lowSurrogate = codeUnit >= 0xDC00 && codeUnit <= 0xDFFF;
            if (pendingHighSurrogate) {
                if (!lowSurrogate) {
                    throw new MalformedText("a lone UTF-16 surrogate escape");
                }
                pendingHighSurrogate = false;
            } else if (lowSurrogate) {
                throw new MalformedText("a lone UTF-16 surrogate escape");
            } else {
                pendingHighSurrogate = highSurrogate;
            }
        }

        @Override
        public boolean isFinished() {
            return delegate.isFinished();
        }

        @Override
        public boolean isReady() {
            return delegate.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            delegate.setReadListener(listener);
        }
    }
}
