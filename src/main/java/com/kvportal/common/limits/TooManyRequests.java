package com.kvportal.common.limits;

import com.kvportal.common.web.CommonProblem;
import com.kvportal.common.web.ProblemException;
import com.kvportal.common.web.Problems;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import org.springframework.http.HttpHeaders;

/** 429 {@code too_many_requests} with {@code Retry-After}: a client address, or whatever a limit counts, spent a budget. */
public final class TooManyRequests extends ProblemException {

    TooManyRequests(Duration wait) {
        this("Too many requests from this address.", wait);
    }

    /** @param limit the limit that was reached, as a sentence; the detail adds when to try again */
    public TooManyRequests(String limit, Duration wait) {
        this(limit, Math.max(1, wait.toSeconds() + (wait.toNanosPart() > 0 ? 1 : 0)));
    }

    private TooManyRequests(String limit, long seconds) {
        super(CommonProblem.TOO_MANY_REQUESTS, limit + " Try again in " + seconds + " s.");
        withHeader(HttpHeaders.RETRY_AFTER, Long.toString(seconds));
    }

    /** Answers with this problem outside Spring MVC (a servlet filter). */
    public void writeTo(HttpServletResponse response, Problems problems) throws IOException {
        response.setHeader(HttpHeaders.RETRY_AFTER, getHeaders().getFirst(HttpHeaders.RETRY_AFTER));
        problems.write(response, getBody());
    }
}
