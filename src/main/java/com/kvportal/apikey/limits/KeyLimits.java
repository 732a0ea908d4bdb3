package com.kvportal.apikey.limits;

import java.util.List;

/**
 * What verify needs to know of a key's limits, held with the key in the key cache: its rate limits, and the
 * generation of its credits (0: unlimited). The generation moves on with every top-up and refill, so that an instance
 * that reloads the key after a top-up drops the credits it set aside of the replaced budget.
 */
public record KeyLimits(List<RateLimit> ratelimits, long creditsGeneration) {

    public static final KeyLimits NONE = new KeyLimits(List.of(), 0);

    public boolean hasCredits() {
        return creditsGeneration > 0;
    }

    public boolean isNone() {
        return ratelimits.isEmpty() && creditsGeneration == 0;
    }
}
