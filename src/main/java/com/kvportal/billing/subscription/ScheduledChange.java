package com.kvportal.billing.subscription;

import com.kvportal.billing.Tier;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;

/** A plan change that waits for the end of the current period (a downgrade). */
@Schema(description = "A plan change that takes effect at the end of the current period (a downgrade).")
public record ScheduledChange(
        @Schema(description = "The tier the subscription moves to.", example = "pro") Tier tier,
        @Schema(description = "When it takes effect: the end of the current period.") Instant effectiveAt) {}
