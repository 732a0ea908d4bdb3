package com.kvportal.apikey.scanning;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * GitHub secret scanning's public keys, as GitHub publishes them: {@code {"public_keys": [{"key_identifier",
 * "key" (PEM), "is_current"}]}} ({@code SECRET_SCANNING_PUBLIC_KEYS}). Unset or blank: the leaked-key endpoint
 * answers 404.
 */
@ConfigurationProperties("kvportal.secret-scanning")
record SecretScanningProperties(@Nullable String publicKeys) {}
