package com.kvportal.common.limits;

import com.kvportal.common.scheduling.PeriodicJob;
import java.time.Duration;
import java.util.Optional;
import lombok.RequiredArgsConstructor;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Limits of the form "at most N within any window", counted exactly and shared by every instance: each request taken
 * is a row in PostgreSQL until one window after it. Unlike {@link RequestLimits}' token buckets, which let a full
 * window's worth come at once and then refill evenly (so up to twice the limit within one window), no window of that
 * length ever holds more than N. Taken in the caller's transaction, so that a request that is refused, or that fails
 * and rolls back, counts nothing; requests for one key wait for each other's transactions (an advisory lock), so that
 * parallel requests cannot slip past the limit together.
 */
@Component
@RequiredArgsConstructor
public class WindowLimits implements PeriodicJob {

    private final JdbcClient jdbc;

    /**
     * Takes one request of {@code key}, which allows {@code requests} within any {@code window}.
     *
     * @param what what is counted, as the refusal names it ("tests and retries of this endpoint")
     * @throws TooManyRequests with the wait until the oldest request counted leaves the window
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void take(String key, int requests, Duration window, String what) {
        jdbc.sql("select pg_advisory_xact_lock(hashtextextended(?, 0))")
                .param("window_limits:" + key)
                .query((rs, n) -> 1)
                .single();
        // the requests-th newest request still counted: when it leaves the window, one more fits
        Optional<Duration> wait = jdbc.sql(
                        """
                        select ceil(extract(epoch from until - clock_timestamp()) * 1000)::bigint
                        from window_limits where key = ? and until > clock_timestamp()
                        order by until desc offset ? limit 1""")
                .param(key)
                .param(requests - 1)
                .query((rs, n) -> Duration.ofMillis(Math.max(1, rs.getLong(1))))
                .optional();
        if (wait.isPresent()) {
            throw new TooManyRequests(
                    "At most " + requests + " " + what + " within " + describe(window) + ".", wait.get());
        }
        jdbc.sql("insert into window_limits (key, until) values (?, clock_timestamp() + ? * interval '1 millisecond')")
                .param(key)
                .param(window.toMillis())
                .update();
    }

    private static String describe(Duration window) {
        return window.equals(Duration.ofMinutes(1)) ? "a minute" : window.toSeconds() + " s";
    }

    /** Every 10 minutes, from a minute after start-up. */
    @Override
    public Schedule schedule() {
        return new Schedule("window-limits-cleanup", Duration.ofMinutes(1), Duration.ofMinutes(10), this::forgetOld);
    }

    /** A request whose window has ended counts no more. */
    void forgetOld() {
        jdbc.sql("delete from window_limits where until < now()").update();
    }
}
