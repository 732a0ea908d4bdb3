package com.kvportal.usage;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of storage usage.
 *
 * @param apiToken the storage backend's bearer token(s) for reporting, comma-separated so that one can be rotated
 *     ({@code USAGE_API_TOKEN}); empty: reporting is off
 * @param refreshInterval how often the in-memory usage that verify answers from reads what changed
 * @param planOverlap how far back each refresh looks for changed subscriptions, longer than any billing transaction
 * @param alertInterval how often each instance evaluates the usage alerts of the organizations whose storage, plan or
 *     limits changed (an alert is due within 60 s of the sample that causes it)
 */
@ConfigurationProperties("kvportal.usage")
public record UsageProperties(
        @DefaultValue("") String apiToken,
        @DefaultValue("1s") Duration refreshInterval,
        @DefaultValue("5m") Duration planOverlap,
        @DefaultValue("1s") Duration alertInterval) {}
