package com.kvportal.common.web;

import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;

/**
 * Text that is not valid Unicode is refused, never repaired: a JSON body is checked byte by byte as it is read, and
 * malformed UTF-8 (overlong forms such as {@code C0 AF}, encoded surrogates, truncated sequences), a lone UTF-16
 * surrogate escape ({@code "\ud800"}) or a NUL ({@code "\u0000"}, or a raw 0 byte) anywhere in it makes the read
 * fail with {@link MalformedText}, which answers 400 {@code malformed_json}. Jackson alone would decode {@code C0 AF}
 * as {@code /} and PostgreSQL would store a lone surrogate as {@code ?}: two different inputs colliding.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 11)
class StrictTextFilter extends RefusingFilter {

    @Override
    @Nullable
    ProblemDetail refusal(HttpServletRequest request, HttpServletResponse response) {
        String mediaType = mediaType(request);
        // a body's type is concrete; Spring MVC would fail on "*/*" or "application/*" with a 500
        if (mediaType.startsWith("*") || mediaType.matches("^[^/;]*/\\*.*")) {
            return Problems.unsupportedMediaType(request.getContentType());
        }
        return null;
    }

    @Override
    HttpServletRequest passed(HttpServletRequest request) {
        String mediaType = mediaType(request);
        // forms and multipart are decoded by Tomcat, which refuses undecodable bytes itself
        if (mediaType.startsWith("application/x-www-form-urlencoded") || mediaType.startsWith("multipart/")) {
            return request;
        }
        return CheckedBody.of(request, CheckedStream::new);
    }

    /** The body's media type in lower case, as sent; empty when the request names none. */
    private static String mediaType(HttpServletRequest request) {
        String type = request.getContentType();
        return type == null ? "" : type.toLowerCase(Locale.ROOT).strip();
    }

    /** Thrown while reading a body that is not valid Unicode text. */
    static final class MalformedText extends IOException {
        MalformedText(String what) {
            super(what);
        }
    }

    /** Validates UTF-8 (RFC 3629) and the escapes of JSON strings on the fly. */
    static final class CheckedStream extends CheckedBody.Stream {
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
            super(delegate);
        }

        @Override
        void end() throws MalformedText {
            if (need > 0) {
                throw new MalformedText("the body ends inside a UTF-8 sequence");
            }
        }

        @Override
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
    }
}
