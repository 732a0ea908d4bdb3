package com.kvportal.common;

import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/**
 * The address at which browsers and the payment provider reach this service: {@code APP_BASE_URL},
 * or {@code http://localhost:<port>} with the port the server actually listens on.
 */
@Component
public class AppBaseUrl implements ApplicationListener<WebServerInitializedEvent> {

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
}
