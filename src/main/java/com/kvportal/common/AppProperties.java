package com.kvportal.common;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Where the service is reached ({@code application.yml} maps {@code APP_BASE_URL} and the server's address and
 * port here).
 *
 * @param baseUrl the public base URL, or empty for {@code http://<host>:<port>}
 * @param host the host of the fallback base URL
 * @param port the configured port; the port the server actually listens on replaces it once known
 */
@ConfigurationProperties("kvportal.app")
@Validated
record AppProperties(
        @DefaultValue("") @Pattern(regexp = "|https?://\\S+", message = "must be empty or an http(s) URL")
                String baseUrl,
        @DefaultValue("localhost") @NotBlank String host,
        @DefaultValue("8080") @Min(0) @Max(65535) int port) {}
