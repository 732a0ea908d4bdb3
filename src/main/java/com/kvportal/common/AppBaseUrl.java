package com.kvportal.common;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/**
 * The address at which browsers and the payment provider reach this service: {@code APP_BASE_URL},
 * or {@code http://localhost:<port>} with the port the server actually listens on.
 */
@Component
public class AppBaseUrl implements ApplicationListener<WebServerInitializedEvent> {

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");

    private final String configured;
    private final String host;
    private volatile int port;

    AppBaseUrl(AppProperties properties) {
        String configured = properties.baseUrl();
        this.configured = configured.endsWith("/") ? configured.substring(0, configured.length() - 1) : configured;
        this.host = properties.host();
        this.port = properties.port();
    }

    @Override
    public void onApplicationEvent(WebServerInitializedEvent event) {
        if (event.getApplicationContext().getServerNamespace() == null) {
            port = event.getWebServer().getPort();
        }
    }

    /** The base URL without a trailing slash. */
    public String get() {
        return configured.isBlank() ? "http://" + host + ":" + port : configured;
    }

    /** An absolute URL for a path that starts with a slash. */
    public String resolve(String path) {
        return get() + path;
    }

    /** The absolute URL of a mailed link: the page, with the link's token in its query. */
    public String resolveWithToken(String page, String token) {
        return resolve(page + "?token=" + URLEncoder.encode(token, StandardCharsets.UTF_8));
    }

    /**
     * Whether the base URL's host is {@code localhost} or a loopback address literal ({@code 127.x.x.x},
     * {@code [::1]}): only this machine reaches the service under it. No name is resolved: a name that merely points
     * at 127.0.0.1 is not loopback.
     */
    public boolean isLoopback() {
        String name = configured.isBlank() ? host : hostOf(configured);
        if (name == null) {
            return false;
        }
        name = name.toLowerCase(Locale.ROOT);
        if (name.equals("localhost")) {
            return true;
        }
        if (IPV4.matcher(name).matches()) {
            return name.startsWith("127.")
                    && Arrays.stream(name.split("\\.")).allMatch(octet -> Integer.parseInt(octet) <= 255);
        }
        if (name.contains(":")) {
            try {
                // an IPv6 literal (with or without brackets) is parsed, never looked up
                return InetAddress.getByName(name).isLoopbackAddress();
            } catch (UnknownHostException e) {
                return false;
            }
        }
        return false;
    }

    /**
     * Whether {@code url} lies under the base URL: an absolute URL with the same scheme, host and port (a default
     * port counts as written), without user info, whose path is the base URL's path or below it once dot segments are
     * resolved. Redirects to such a URL stay on this service.
     */
    public boolean covers(String url) {
        URI base;
        URI target;
        try {
            base = new URI(get());
            target = new URI(url);
        } catch (URISyntaxException e) {
            return false;
        }
        if (!target.isAbsolute()
                || target.isOpaque()
                || target.getRawUserInfo() != null
                || target.getHost() == null
                || base.getHost() == null) {
            return false;
        }
        if (!target.getScheme().equalsIgnoreCase(base.getScheme())
                || !target.getHost().equalsIgnoreCase(base.getHost())
                || port(target) != port(base)) {
            return false;
        }
        String rawPath = target.getRawPath() == null ? "" : target.getRawPath();
        if (rawPath.toLowerCase(Locale.ROOT).contains("%2e")) {
            // browsers take %2e%2e for a dot segment; nobody's return URL needs an encoded dot
            return false;
        }
        String path = target.normalize().getRawPath();
        if (path.startsWith("/..") || path.startsWith("..")) {
            return false;
        }
        String prefix = base.getRawPath() == null ? "" : base.getRawPath();
        if (prefix.endsWith("/")) {
            prefix = prefix.substring(0, prefix.length() - 1);
        }
        return prefix.isEmpty() || path.equals(prefix) || path.startsWith(prefix + "/");
    }

    private static @Nullable String hostOf(String url) {
        try {
            return new URI(url).getHost();
        } catch (URISyntaxException e) {
            return null;
        }
    }

    private static int port(URI uri) {
        if (uri.getPort() >= 0) {
            return uri.getPort();
        }
        return uri.getScheme().equalsIgnoreCase("https") ? 443 : 80;
    }
}
