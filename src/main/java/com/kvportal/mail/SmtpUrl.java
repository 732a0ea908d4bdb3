package com.kvportal.mail;

import com.kvportal.common.UrlCredentials;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.jspecify.annotations.Nullable;
import org.springframework.mail.javamail.JavaMailSenderImpl;

/**
 * {@code SMTP_URL} read: {@code smtp://user:pass@host:587?starttls=required} or {@code smtps://user:pass@host:465}
 * (TLS from the first byte). Mail holds reset and invitation links, so it never crosses a network in clear unless
 * asked to in so many words: to a host other than a loopback address, {@code smtp://} means STARTTLS {@code required}
 * (also when {@code starttls} is not given), {@code optional} is refused (an attacker on the path could strip the
 * offer), and only an explicit {@code starttls=off} sends in clear (then {@link #clearTextWarning} says so at start).
 * To a loopback address (a relay on the same machine) {@code starttls} is {@code off} unless given. User and
 * password are percent-decoded. {@code ssl_trust=<host>} trusts that host's certificate without a CA and without a
 * name check (Jakarta Mail's {@code mail.smtp.ssl.trust}), e.g. for a test server with a self-signed one.
 */
public record SmtpUrl(
        boolean implicitTls,
        String host,
        int port,
        @Nullable String username,
        @Nullable String password,
        Starttls starttls,
        @Nullable String sslTrust) {

    public enum Starttls {
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
        boolean loopback = isLoopback(uri.getHost());
        Starttls starttls =
                switch (query.getOrDefault("starttls", implicitTls || loopback ? "off" : "required")
                        .toLowerCase()) {
                    case "required" -> Starttls.REQUIRED;
                    case "optional" -> Starttls.OPTIONAL;
                    case "off" -> Starttls.OFF;
                    default -> throw invalid("starttls must be required, optional or off");
                };
        if (implicitTls && starttls != Starttls.OFF) {
            throw invalid("smtps:// is TLS already; starttls belongs to smtp://");
        }
        if (starttls == Starttls.OPTIONAL && !loopback) {
            throw invalid("starttls=optional would let anyone on the path strip STARTTLS; to a host that is not"
                    + " loopback say starttls=required, or starttls=off to send in clear on purpose");
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
    public JavaMailSenderImpl sender(Duration timeout) {
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

    /**
     * The start-up warning when mail to a host beyond this machine travels in clear ({@code starttls=off} given
     * explicitly), else empty.
     */
    Optional<String> clearTextWarning() {
        if (implicitTls || starttls != Starttls.OFF || isLoopback(host)) {
            return Optional.empty();
        }
        return Optional.of("SMTP_URL says starttls=off: mail to " + host + ":" + port
                + " travels in clear, reset and invitation links and the SMTP password included; use"
                + " starttls=required or smtps:// unless the network to it is your own");
    }

    /** {@code localhost} or a loopback IP literal (names are not resolved: a name may point elsewhere tomorrow). */
    private static boolean isLoopback(String host) {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (bare.equalsIgnoreCase("localhost")) {
            return true;
        }
        if (!bare.contains(":") && !bare.matches("[0-9.]+")) {
            return false;
        }
        try {
            return InetAddress.getByName(bare).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
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
