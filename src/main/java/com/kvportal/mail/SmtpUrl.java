package com.kvportal.mail;

import com.kvportal.common.UrlCredentials;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.jspecify.annotations.Nullable;
import org.springframework.mail.javamail.JavaMailSenderImpl;

/**
 * {@code SMTP_URL} read: {@code smtp://user:pass@host:587?starttls=required} (STARTTLS {@code required}, {@code
 * optional} or, by default, {@code off}) or {@code smtps://user:pass@host:465} (TLS from the first byte). User and
 * password are percent-decoded. {@code ssl_trust=<host>} trusts that host's certificate without a CA and without a
 * name check (Jakarta Mail's {@code mail.smtp.ssl.trust}), e.g. for a test server with a self-signed one.
 */
record SmtpUrl(
        boolean implicitTls,
        String host,
        int port,
        @Nullable String username,
        @Nullable String password,
        Starttls starttls,
        @Nullable String sslTrust) {

    enum Starttls {
        OFF,
        OPTIONAL,
        REQUIRED
    }

    static SmtpUrl parse(String url) {
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            throw invalid("is not a URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase();
        if (!scheme.equals("smtp") && !scheme.equals("smtps")) {
            throw invalid("must start with smtp:// or smtps://");
        }
        if (uri.getHost() == null) {
            throw invalid("names no host");
        }
        boolean implicitTls = scheme.equals("smtps");
        int port = uri.getPort() > 0 ? uri.getPort() : implicitTls ? 465 : 587;
        UrlCredentials credentials = UrlCredentials.of(uri, "SMTP_URL");
        Map<String, String> query = query(uri.getRawQuery());
        Starttls starttls =
                switch (query.getOrDefault("starttls", "off").toLowerCase()) {
                    case "required" -> Starttls.REQUIRED;
                    case "optional" -> Starttls.OPTIONAL;
                    case "off" -> Starttls.OFF;
                    default -> throw invalid("starttls must be required, optional or off");
                };
        if (implicitTls && starttls != Starttls.OFF) {
            throw invalid("smtps:// is TLS already; starttls belongs to smtp://");
        }
        return new SmtpUrl(
                implicitTls,
                uri.getHost(),
                port,
                credentials.username(),
                credentials.password(),
                starttls,
                query.get("ssl_trust"));
    }

    /** A sender for this server, each exchange bounded by the timeout. */
    JavaMailSenderImpl sender(Duration timeout) {
        JavaMailSenderImpl sender = new JavaMailSenderImpl();
        String protocol = implicitTls ? "smtps" : "smtp";
        sender.setProtocol(protocol);
        sender.setHost(host);
        sender.setPort(port);
        sender.setUsername(username);
        sender.setPassword(password);
        sender.setDefaultEncoding("UTF-8");
        Properties properties = new Properties();
        String prefix = "mail." + protocol + ".";
        String millis = Long.toString(timeout.toMillis());
        properties.setProperty(prefix + "connectiontimeout", millis);
        properties.setProperty(prefix + "timeout", millis);
        properties.setProperty(prefix + "writetimeout", millis);
        properties.setProperty(prefix + "auth", Boolean.toString(username != null));
        if (starttls != Starttls.OFF) {
            properties.setProperty(prefix + "starttls.enable", "true");
            properties.setProperty(prefix + "starttls.required", Boolean.toString(starttls == Starttls.REQUIRED));
        }
        if (sslTrust != null) {
            // whatever certificate the named host shows is taken as its own, whichever names it lists
            properties.setProperty(prefix + "ssl.trust", sslTrust);
            properties.setProperty(prefix + "ssl.checkserveridentity", "false");
        }
        sender.setJavaMailProperties(properties);
        return sender;
    }

    /** Where the messages go, for the start-up log: never the password. */
    @Override
    public String toString() {
        return (implicitTls ? "smtps://" : "smtp://") + (username == null ? "" : username + "@") + host + ":" + port
                + (starttls == Starttls.OFF
                        ? ""
                        : " (STARTTLS " + starttls.name().toLowerCase() + ")");
    }

    private static Map<String, String> query(@Nullable String raw) {
        Map<String, String> query = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return query;
        }
        for (String pair : raw.split("&")) {
            String[] parts = pair.split("=", 2);
            query.put(
                    UrlCredentials.decode(parts[0]).toLowerCase(),
                    parts.length > 1 ? UrlCredentials.decode(parts[1]) : "");
        }
        return query;
    }

    private static IllegalArgumentException invalid(String why) {
        // the URL itself may hold a password: it is not repeated
        return new IllegalArgumentException("SMTP_URL " + why
                + " (expected smtp://user:pass@host:587?starttls=required or smtps://user:pass@host:465)");
    }
}
