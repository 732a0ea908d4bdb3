package com.kvportal.webhooks;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Outgoing webhooks ({@code kvportal.webhooks.*}). The defaults are those docs/webhooks.md, Delivery, states; tests shorten the waits.
 *
 * @param allowPrivateTargets true: {@code http://} and loopback, private, link-local addresses are allowed too (local
 *     testing only; environment {@code KVPORTAL_WEBHOOKS_ALLOWPRIVATETARGETS})
 * @param timeout the whole of one attempt: connect, TLS, sending, and the answer's head
 * @param retrySchedule the waits after the 1st, 2nd, ... failed attempt; after the last one the delivery is failed
 * @param disableAfter an endpoint that has failed every attempt for this long is disabled
 * @param workers attempts in flight per instance at most (a bounded pool: hanging receivers never reach the API's
 *     threads)
 * @param inFlightPerOrganization attempts of one organization in flight at once, across every instance: its slow or
 *     hanging endpoints hold at most this many workers, and the rest serve other organizations (keep it well below
 *     {@code workers})
 * @param pollInterval how often each instance looks for due deliveries (besides right after each commit)
 * @param responseBodyCap how much of an answer's body is read before the connection is closed
 * @param secretOverlap how long a rotated-out secret keeps signing beside the new one
 * @param retention how long a delivered or failed delivery stays in the log (and its event while any delivery of it
 *     does); a pending one is never deleted
 * @param purgeInterval how often each instance deletes what is older than the retention
 * @param purgeInitialDelay when the first purge runs after start-up
 * @param manualAttemptsPerMinute tests and retries asked for per endpoint within any minute, across every instance
 */
@ConfigurationProperties("kvportal.webhooks")
@Validated
public record WebhookProperties(
        @DefaultValue("false") boolean allowPrivateTargets,
        @DefaultValue("10s") @NotNull Duration timeout,
        @DefaultValue({"5s", "5m", "30m", "2h", "5h", "10h", "10h"}) @NotEmpty List<Duration> retrySchedule,
        @DefaultValue("5d") @NotNull Duration disableAfter,
        @DefaultValue("16") @Min(1) int workers,
        @DefaultValue("1s") @NotNull Duration pollInterval,
        @DefaultValue("64KB") @NotNull org.springframework.util.unit.DataSize responseBodyCap,
        @DefaultValue("24h") @NotNull Duration secretOverlap,
        @DefaultValue("30d") @NotNull Duration retention,
        @DefaultValue("1h") @NotNull Duration purgeInterval,
        @DefaultValue("1m") @NotNull Duration purgeInitialDelay,
        @DefaultValue("4") @Min(1) int inFlightPerOrganization,
        @DefaultValue("10") @Min(1) int manualAttemptsPerMinute) {

    /** How long a claimed delivery is held by its instance: past it (the instance died), another one may try. */
    public Duration lease() {
        return timeout.multipliedBy(3).plusSeconds(5);
    }
}
