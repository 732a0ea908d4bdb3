package com.kvportal.apikey.policy;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * An organization's rules for the keys of its projects, enforced when a key is created, updated or rolled (a policy
 * applies to keys created or changed after it; existing keys keep what they have).
 */
public record KeyPolicy(
        @Schema(
                        nullable = true,
                        minimum = "1",
                        maximum = "365",
                        description = "Null: keys may live as long as the API allows (365 days); else the most days"
                                + " ahead an expires_at may lie, and the default expiry is shortened to fit.")
                @Nullable
                Integer maxLifetimeDays,
        @Schema(description = "True: a key must name the addresses it may be used from (allowed_ips).")
                boolean requireAllowedIps) {

    public static final KeyPolicy DEFAULT = new KeyPolicy(null, false);

    /** The expiry of a key that leaves it out: {@code fallback} (90 days), or the policy's maximum when earlier. */
    public Instant defaultExpiry(Instant now, Instant fallback) {
        if (maxLifetimeDays == null) {
            return fallback;
        }
        Instant latest = now.plus(Duration.ofDays(maxLifetimeDays));
        return fallback.isAfter(latest) ? latest : fallback;
    }

    /** Why an expiry the request asked for is refused, naming the rule; empty when the policy allows it. */
    public Optional<String> refusesExpiry(Instant now, Instant expiresAt) {
        if (maxLifetimeDays == null || !expiresAt.isAfter(now.plus(Duration.ofDays(maxLifetimeDays)))) {
            return Optional.empty();
        }
        return Optional.of("The organization's key policy allows keys of at most " + maxLifetimeDays
                + " days (max_lifetime_days): send an expires_at within " + maxLifetimeDays
                + " days from now, or leave it out to get the longest allowed.");
    }

    /** Why a key without allowed addresses is refused, naming the rule; empty when the policy allows it. */
    public Optional<String> refusesAnyAddress(boolean hasAllowedIps) {
        if (!requireAllowedIps || hasAllowedIps) {
            return Optional.empty();
        }
        return Optional.of("The organization's key policy requires allowed addresses on every key"
                + " (require_allowed_ips): send allowed_ips with the addresses or CIDR blocks the key is used from.");
    }
}
