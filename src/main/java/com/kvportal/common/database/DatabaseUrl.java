package com.kvportal.common.database;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * A {@code DATABASE_URL} in either form: {@code jdbc:postgresql://host:port/db?...} or the
 * {@code postgres://user:pass@host:port/db} form of Heroku, Render and libpq.
 */
record DatabaseUrl(String jdbcUrl, @Nullable String username, @Nullable String password) {

    static DatabaseUrl parse(String value) {
        String url = value.trim();
        if (url.startsWith("jdbc:postgresql:")) {
            return new DatabaseUrl(url, null, null);
        }
        if (!url.startsWith("postgres://") && !url.startsWith("postgresql://")) {
            throw new IllegalArgumentException(
                    "DATABASE_URL must start with jdbc:postgresql://, postgres:// or postgresql://");
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            // the parser's message repeats the whole URL, password included
            throw new IllegalArgumentException(
                    "DATABASE_URL is not a valid URL (percent-encode special characters of the user and password): "
                            + redact(url));
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("DATABASE_URL has no host: " + redact(url));
        }
        String port = uri.getPort() < 0 ? "" : ":" + uri.getPort();
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        String query = uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery();
        String username = null;
        String password = null;
        if (uri.getRawUserInfo() != null) {
            String[] parts = uri.getRawUserInfo().split(":", 2);
            username = decode(parts[0]);
            password = parts.length > 1 ? decode(parts[1]) : null;
        }
        return new DatabaseUrl("jdbc:postgresql://" + uri.getHost() + port + path + query, username, password);
    }

    /** Percent-decoding of a URL's user info, where a '+' is a plus (URLDecoder alone would make it a space). */
    private static String decode(String s) {
        try {
            return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            // the decoder's message quotes the broken part of the secret
            throw new IllegalArgumentException("DATABASE_URL has an invalid %-escape in its user or password");
        }
    }

    private static String redact(String url) {
        return url.replaceAll("//[^@/]*@", "//***@");
    }
}
