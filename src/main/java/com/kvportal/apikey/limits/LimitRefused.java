package com.kvportal.apikey.limits;

import com.kvportal.apikey.analytics.Outcome;
import com.kvportal.common.web.ProblemException;
import java.time.Instant;
import org.springframework.http.HttpHeaders;

/** 429 from verify: a rate limit or the credits refuse it; the problem carries the limits' state as a 200 would. */
public final class LimitRefused extends ProblemException {

    private LimitRefused(LimitProblem problem, String detail, LimitState state) {
        super(problem, detail);
        withProperty("ratelimits", state.ratelimits());
        getBody().setProperty("credits", state.credits());
    }

    /** The outcome the verification counts record for this refusal. */
    public Outcome outcome() {
        return code().equals(LimitProblem.RATE_LIMITED.code()) ? Outcome.RATE_LIMITED : Outcome.CREDITS_EXHAUSTED;
    }

    static LimitRefused rateLimited(RateLimit limit, long waitMillis, LimitState state) {
        long seconds = seconds(waitMillis);
        return (LimitRefused) new LimitRefused(
                        LimitProblem.RATE_LIMITED,
                        "The rate limit '" + limit.nameValue() + "' of this key (" + limit.inWords()
                                + ") is reached; try again in " + seconds + " s, when its window ends.",
                        state)
                .withHeader(HttpHeaders.RETRY_AFTER, Long.toString(seconds));
    }

    static LimitRefused creditsExhausted(long remaining, int cost, Instant now, LimitState state) {
        Instant next = state.credits() == null ? null : state.credits().nextRefillAt();
        String detail = "The key has " + remaining + " credits left and this verify costs " + cost
                + "; top its credits up with an update of credits"
                + (next == null ? "." : ", or wait for the next refill at " + next + ".");
        LimitRefused refused = new LimitRefused(LimitProblem.CREDITS_EXHAUSTED, detail, state);
        if (next != null) {
            refused.withHeader(
                    HttpHeaders.RETRY_AFTER, Long.toString(seconds(next.toEpochMilli() - now.toEpochMilli())));
        }
        return refused;
    }

    /** Whole seconds, rounded up, at least 1. */
    private static long seconds(long millis) {
        return Math.max(1, (millis + 999) / 1000);
    }
}
