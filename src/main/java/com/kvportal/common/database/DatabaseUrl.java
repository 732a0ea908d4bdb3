package com.kvportal.common.database;

import com.kvportal.common.UrlCredentials;
import java.net.URI;
import java.net.URISyntaxException;
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
        UrlCredentials credentials = UrlCredentials.of(uri, "DATABASE_URL");
        return new DatabaseUrl(
                "jdbc:postgresql://" + uri.getHost() + port + path + query,
                credentials.username(),
                credentials.password());
    }

    private static String redact(String url) {
        return url.replaceAll("//[^@/]*@", "//***@");
    }
}
