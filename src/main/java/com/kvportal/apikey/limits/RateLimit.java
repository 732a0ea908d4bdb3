package com.kvportal.apikey.limits;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.hibernate.validator.constraints.Range;
import org.jspecify.annotations.Nullable;

/**
 * A named rate limit of a key: at most {@code limit} (the sum of the accepted verifies' costs) in each fixed window
 * of {@code duration_ms}, windows aligned to the Unix epoch.
 */
@Schema(name = "RateLimit")
public record RateLimit(
        @Schema(description = "1-32 characters of a-z 0-9 _ -, unique per key.", example = "per-minute")
                @NotNull
                @Pattern(regexp = "[a-z0-9_-]{1,32}", message = "must be 1-32 characters of a-z 0-9 _ -")
                @Nullable
                String name,
        @Schema(description = "The most accepted per window (sum of costs).", minimum = "1", maximum = "1000000")
                @NotNull
                @Range(min = 1, max = 1_000_000, message = "must be between 1 and 1000000")
                @Nullable
                Long limit,
        @Schema(description = "The window's length in milliseconds.", minimum = "1000", maximum = "86400000")
                @NotNull
                @Range(min = 1_000, max = 86_400_000, message = "must be between 1000 (1 s) and 86400000 (1 day)")
                @Nullable
                Long durationMs) {

    public static final int MAX_PER_KEY = 5;

    /** A key's {@code ratelimits}: at most 5, each with a name of its own. */
    public static Optional<String> listRefusal(List<?> ratelimits) {
        Optional<String> refusal =
                Optional.of("must hold at most " + MAX_PER_KEY + " rate limits, each with a name of its own");
        if (ratelimits.size() > MAX_PER_KEY) {
            return refusal;
        }
        Set<String> names = new HashSet<>();
        for (Object limit : ratelimits) {
            if (!(limit instanceof RateLimit rateLimit) || (rateLimit.name() != null && !names.add(rateLimit.name()))) {
                return refusal;
            }
        }
        return Optional.empty();
    }

    /** The start of the window that holds {@code epochMillis}. */
    public long windowStart(long epochMillis) {
        long duration = duration();
        return Math.floorDiv(epochMillis, duration) * duration;
    }

    public long limitValue() {
        return java.util.Objects.requireNonNull(limit);
    }

    public long duration() {
        return java.util.Objects.requireNonNull(durationMs);
    }

    public String nameValue() {
        return java.util.Objects.requireNonNull(name);
    }

    /** "100 per minute", "5 per 90 seconds": the window in words, as the dashboard shows it. */
    public String inWords() {
        long ms = duration();
        String per;
        if (ms % 86_400_000 == 0) {
            per = "day";
        } else if (ms % 3_600_000 == 0) {
            per = ms == 3_600_000 ? "hour" : (ms / 3_600_000) + " hours";
        } else if (ms % 60_000 == 0) {
            per = ms == 60_000 ? "minute" : (ms / 60_000) + " minutes";
        } else if (ms % 1_000 == 0) {
            per = ms == 1_000 ? "second" : (ms / 1_000) + " seconds";
        } else {
            per = ms + " ms";
        }
        return limitValue() + " per " + per;
    }
}
