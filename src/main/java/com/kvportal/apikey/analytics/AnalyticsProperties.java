package com.kvportal.apikey.analytics;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Verification analytics ({@code kvportal.analytics.*}).
 *
 * @param counting whether verifies are counted at all: on, but for the benchmark that measures what counting costs
 * @param flushInterval how often the counts held in memory are written (at most 10 s: a kill -9 loses at most this)
 * @param purgeInterval how often buckets past their granularity's reach are deleted
 */
@ConfigurationProperties("kvportal.analytics")
public record AnalyticsProperties(
        @DefaultValue("true") boolean counting,
        @DefaultValue("10s") Duration flushInterval,
        @DefaultValue("1h") Duration purgeInterval) {

    private static final Duration MAX_FLUSH_INTERVAL = Duration.ofSeconds(10);

    public AnalyticsProperties {
        if (flushInterval.compareTo(MAX_FLUSH_INTERVAL) > 0) {
            throw new IllegalArgumentException("kvportal.analytics.flush-interval must be at most 10s (a kill -9 loses"
                    + " at most one interval of counts), was " + flushInterval);
        }
    }
}
