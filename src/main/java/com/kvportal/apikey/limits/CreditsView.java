package com.kvportal.apikey.limits;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** A key's credits as the list shows them. */
@Schema(name = "CreditsStanding")
public record CreditsView(
        @Schema(
                        description = "Left at the key; credits that an instance set aside and has not used come back"
                                + " within 2 s of its last verify of the key.")
                long remaining,
        @Schema(nullable = true) Credits.@Nullable Refill refill,
        @Schema(nullable = true, description = "00:00 UTC of the next refill; null without refill.") @Nullable
                Instant nextRefillAt) {}
