package com.kvportal.apikey.analytics;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Optional;

/**
 * The size of a bucket of counts, aligned to UTC, each with its table and how far back it reaches: minutes for 24
 * hours, hours for 30 days, days for 400 days. Rows are kept one bucket longer than the reach (a range may start
 * inside the oldest bucket), and deleted after that ({@link VerificationRetention}).
 */
public enum Granularity {
    MINUTE(ChronoUnit.MINUTES, Duration.ofHours(24)),
    HOUR(ChronoUnit.HOURS, Duration.ofDays(30)),
    DAY(ChronoUnit.DAYS, Duration.ofDays(400));

    private final ChronoUnit unit;
    private final Duration reach;

    Granularity(ChronoUnit unit, Duration reach) {
        this.unit = unit;
        this.reach = reach;
    }

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    static Optional<Granularity> ofWire(String wire) {
        for (Granularity g : values()) {
            if (g.wire().equals(wire)) {
                return Optional.of(g);
            }
        }
        return Optional.empty();
    }

    /** The table of this granularity's buckets (a constant: safe to put into SQL). */
    String table() {
        return "key_verifications_" + wire();
    }

    Instant bucketOf(Instant at) {
        return at.truncatedTo(unit);
    }

    Duration reach() {
        return reach;
    }

    /** The oldest moment a range may start at: the reach, plus the bucket in progress when the reach began. */
    Instant oldestStart(Instant now) {
        return bucketOf(now.minus(reach)).minus(1, unit);
    }

    /** Rows older than this are past the reach and deleted. */
    Instant purgeBefore(Instant now) {
        return oldestStart(now).minus(1, unit);
    }

    /** The finest granularity whose reach holds a range starting at {@code start}; empty past the longest reach. */
    static Optional<Granularity> finestReaching(Instant start, Instant now) {
        for (Granularity g : values()) {
            if (!start.isBefore(g.oldestStart(now))) {
                return Optional.of(g);
            }
        }
        return Optional.empty();
    }
}
