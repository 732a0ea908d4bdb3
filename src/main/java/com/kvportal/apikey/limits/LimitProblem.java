package com.kvportal.apikey.limits;

import static com.kvportal.common.web.ProblemCode.define;

import com.kvportal.common.web.ProblemCode;
import com.kvportal.common.web.ProblemCodes;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import lombok.Getter;
import lombok.RequiredArgsConstructor;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

/** The problem codes of a key's rate limits and credits at verify (see {@link ProblemCode}). */
@Getter
@RequiredArgsConstructor
public enum LimitProblem implements ProblemCode {
    RATE_LIMITED(define(
                    HttpStatus.TOO_MANY_REQUESTS,
                    "rate_limited",
                    "A rate limit of the key is reached for its current window; ratelimits and credits tell the"
                            + " state, Retry-After the seconds to the window's end.",
                    "The rate limit 'per-minute' of this key (100 per minute) is reached; try again in 12 s, when"
                            + " its window ends.")
            .withHeader(HttpHeaders.RETRY_AFTER, "12")
            .withMember("ratelimits", Members.RATELIMITS)
            .withMember("credits", Members.CREDITS)),
    CREDITS_EXHAUSTED(define(
                    HttpStatus.TOO_MANY_REQUESTS,
                    "credits_exhausted",
                    "The key's credits do not cover the verify's cost; Retry-After (with a refill) the seconds to the next"
                            + " refill.",
                    "The key has 0 credits left and this verify costs 1; top its credits up with an update of credits,"
                            + " or wait for the next refill.")
            .withMember("ratelimits", Members.RATELIMITS)
            .withMember("credits", Members.CREDITS));

    /** The members a 429 of verify carries besides the standard ones. */
    private static final class Members {
        static final String RATELIMITS =
                "the key's rate limits as a 200 shows them: [{name, limit, remaining, reset_at}].";
        static final String CREDITS = "the key's credits as a 200 shows them: {remaining, next_refill_at}.";
    }

    private final Definition definition;

    /** Names the codes of this enum that an operation answers, on the method next to its {@code @ApiContract}. */
    @Retention(RetentionPolicy.RUNTIME)
    @ProblemCodes
    public @interface Codes {
        LimitProblem[] value();
    }
}
