package com.kvportal.common;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * The user and password of a URL's user info ({@code scheme://user:pass@host}), percent-decoded, e.g. of
 * {@code DATABASE_URL} or {@code SMTP_URL}; null when the URL names none.
 */
public record UrlCredentials(@Nullable String username, @Nullable String password) {

    /**
     * @param setting the setting that holds the URL, named in the error of an invalid %-escape (the secret never
     *     is: the decoder's own message quotes the broken part of it)
     */
    public static UrlCredentials of(URI uri, String setting) {
        String userInfo = uri.getRawUserInfo();
        if (userInfo == null) {
            return new UrlCredentials(null, null);
        }
        String[] parts = userInfo.split(":", 2);
        try {
            return new UrlCredentials(decode(parts[0]), parts.length > 1 ? decode(parts[1]) : null);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(setting + " has an invalid %-escape in its user or password");
        }
    }

    /** Percent-decoding of a URL's part, where a '+' is a plus (URLDecoder alone would make it a space). */
    public static String decode(String text) {
        return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
}
