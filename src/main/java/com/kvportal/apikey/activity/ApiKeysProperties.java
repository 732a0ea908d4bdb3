package com.kvportal.apikey.activity;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The timing of the API keys' background work ({@code kvportal.api-keys.*}).
 *
 * @param lastUsedFlush how often {@code last_used_at} is written (the first time right at start)
 * @param expiryScanInterval how often keys 7 days and 1 day from expiry are looked for
 * @param expiryScanInitialDelay when the first such scan runs after start-up
 */
@ConfigurationProperties("kvportal.api-keys")
record ApiKeysProperties(
        @DefaultValue("500ms") Duration lastUsedFlush,
        @DefaultValue("15m") Duration expiryScanInterval,
        @DefaultValue("30s") Duration expiryScanInitialDelay) {}
