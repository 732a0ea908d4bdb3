package com.kvportal.apikey.limits;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** A key's rate limits and credits as a verify leaves them: in its 200, and in the problem of a 429. */
public record LimitState(List<RateLimitState> ratelimits, @Nullable CreditState credits) {

    public static final LimitState NONE = new LimitState(List.of(), null);

    @Schema(name = "RateLimitState")
    public record RateLimitState(
            String name,
            long limit,
            @Schema(description = "What the current window still accepts, as this instance knows it.") long remaining,
            @Schema(description = "The end of the current window.") Instant resetAt) {}

    @Schema(name = "CreditState")
    public record CreditState(
            long remaining,
            @Schema(nullable = true, description = "Null without refill.") @Nullable Instant nextRefillAt) {}
}
