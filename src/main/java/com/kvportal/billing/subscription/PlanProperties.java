package com.kvportal.billing.subscription;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * What the plans offer beyond the plans table ({@code application.yml} maps {@code TRIAL_DAYS} here).
 *
 * @param trialDays the days of trial of every paid plan, 1 to 90; unset (the default): no trials
 */
@ConfigurationProperties("kvportal.billing.plans")
@Validated
record PlanProperties(
        @Min(value = 1, message = "TRIAL_DAYS must be 1 to 90, or unset for no trials")
                @Max(value = 90, message = "TRIAL_DAYS must be 1 to 90, or unset for no trials")
                @Nullable
                Integer trialDays) {

    /** The trial days a plan of this price carries: none on the free plan or when no trials are set. */
    int trialDaysOf(long priceCents) {
        return trialDays == null || priceCents == 0 ? 0 : trialDays;
    }
}
