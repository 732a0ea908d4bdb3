package com.kvportal.apikey.analytics;

import com.kvportal.common.web.FieldErrors;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The buckets a read asks for: those of {@code granularity} that start in {@code [bucketOf(start), end)}. Default: the
 * last 24 hours in minutes. A range reaching back past its granularity's reach, or ending before it starts, is
 * refused with 400 {@code validation_failed} naming the field.
 */
record VerificationRange(Granularity granularity, Instant start, Instant end) {

    static final Duration DEFAULT_SPAN = Duration.ofHours(24);

    /** The first bucket of the range: the one {@code start} falls in. */
    Instant firstBucket() {
        return granularity.bucketOf(start);
    }

    static VerificationRange parse(
            @Nullable String granularity, @Nullable String start, @Nullable String end, Instant now) {
        FieldErrors errors = new FieldErrors();
        Granularity g = Granularity.MINUTE;
        if (granularity != null) {
            Optional<Granularity> named = Granularity.ofWire(granularity);
            if (named.isEmpty()) {
                errors.add("granularity", "must be minute, hour or day");
            } else {
                g = named.get();
            }
        }
        Times times = times(start, end, now, errors);
        if (times != null && errors.isEmpty() && times.start().isBefore(g.oldestStart(now))) {
            errors.add(
                    "start",
                    g.wire() + " buckets reach back " + reachText(g) + "; start later, or ask for "
                            + (g == Granularity.DAY ? "less" : "a coarser granularity"));
        }
        errors.throwIfAny();
        return new VerificationRange(g, times.start(), times.end());
    }

    /** The range of the busiest keys: at the finest granularity that reaches back to its start (400 days at most). */
    static VerificationRange parseForTopKeys(@Nullable String start, @Nullable String end, Instant now) {
        FieldErrors errors = new FieldErrors();
        Times times = times(start, end, now, errors);
        Optional<Granularity> g = times == null ? Optional.empty() : Granularity.finestReaching(times.start(), now);
        if (times != null && errors.isEmpty() && g.isEmpty()) {
            errors.add("start", "verifications reach back " + reachText(Granularity.DAY) + "; start later");
        }
        errors.throwIfAny();
        return new VerificationRange(g.orElseThrow(), times.start(), times.end());
    }

    private record Times(Instant start, Instant end) {}

    private static @Nullable Times times(
            @Nullable String start, @Nullable String end, Instant now, FieldErrors errors) {
        Instant to = end == null ? now : instant("end", end, errors);
        Instant from = start == null ? (to == null ? null : to.minus(DEFAULT_SPAN)) : instant("start", start, errors);
        if (from == null || to == null) {
            return null;
        }
        if (to.isBefore(from)) {
            errors.add("end", "must not be before start");
        }
        return new Times(from, to);
    }

    private static @Nullable Instant instant(String field, String value, FieldErrors errors) {
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            errors.add(field, "must be a timestamp such as 2026-11-26T17:00:00Z");
            return null;
        }
    }

    private static String reachText(Granularity g) {
        return switch (g) {
            case MINUTE -> "24 hours";
            case HOUR -> "30 days";
            case DAY -> "400 days";
        };
    }
}
