package com.kvportal.common.limits;

import com.kvportal.common.scheduling.PeriodicJob;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Optional;
import lombok.RequiredArgsConstructor;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Limits of the form "at most N within any window", counted exactly and shared by every instance: each request taken
 * is a row in PostgreSQL ({@code window_limits}) until one window after it. Unlike {@link RequestLimits}' token
 * buckets, which let a full window's worth come at once and then refill evenly (so up to twice the limit within one
 * window), no window of that length ever holds more than N. Used where a request makes the service work or mail for
 * somebody: tests and retries of a webhook endpoint, invitation mails, email-change links.
 *
 * <p>Taken in the caller's transaction, so that a request that is refused, or that fails and rolls back, counts
 * nothing; requests for one key wait for each other's transactions (an advisory lock), so that parallel requests
 * cannot slip past the limit together.
 */
@Component
@RequiredArgsConstructor
public class WindowLimits implements PeriodicJob {

    /**
     * At most {@code requests} of {@code key} within any {@code window}.
     *
     * @param refusal the sentence a refusal starts with ("At most 10 tests ... within a minute."); the detail adds
     *     when to try again
     */
    public record Limit(String key, int requests, Duration window, String refusal) {

        /** A limit whose refusal says "At most {@code requests} {@code what} within {@code window}." */
        public static Limit of(String key, int requests, Duration window, String what) {
            return new Limit(
                    key, requests, window, "At most " + requests + " " + what + " within " + describe(window) + ".");
        }

        private static String describe(Duration window) {
            if (window.equals(Duration.ofMinutes(1))) {
                return "a minute";
            }
            if (window.equals(Duration.ofHours(1))) {
                return "an hour";
            }
            if (window.equals(Duration.ofDays(1))) {
                return "a day";
            }
            return window.toSeconds() + " s";
        }
    }

    private final JdbcClient jdbc;

    /** Takes one request of a single limit (see {@link #take(Limit...)}). */
    @Transactional(propagation = Propagation.MANDATORY)
    public void take(String key, int requests, Duration window, String what) {
        take(Limit.of(key, requests, window, what));
    }

    /**
     * Takes one request of every limit, or, when any of them is spent, of none.
     *
     * @throws TooManyRequests with the first spent limit's refusal and the wait until its oldest request counted
     *     leaves the window
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void take(Limit... limits) {
        Limit[] ordered = limits.clone();
        // always locked in the same order, so that two requests sharing two keys cannot wait for each other
        Arrays.sort(ordered, Comparator.comparing(Limit::key));
        for (Limit limit : ordered) {
            jdbc.sql("select pg_advisory_xact_lock(hashtextextended(?, 0))")
                    .param("window_limits:" + limit.key())
                    .query((rs, n) -> 1)
                    .single();
        }
        for (Limit limit : limits) {
            wait(limit).ifPresent(wait -> {
                throw new TooManyRequests(limit.refusal(), wait);
            });
        }
        for (Limit limit : limits) {
            jdbc.sql(
                            "insert into window_limits (key, until) values (?, clock_timestamp() + ? * interval '1 millisecond')")
                    .param(limit.key())
                    .param(limit.window().toMillis())
                    .update();
        }
    }

    /** Until the oldest of the last {@code requests} still counted leaves the window (then one more fits). */
    private Optional<Duration> wait(Limit limit) {
        return jdbc.sql(
                        """
                        select ceil(extract(epoch from until - clock_timestamp()) * 1000)::bigint
                        from window_limits where key = ? and until > clock_timestamp()
                        order by until desc offset ? limit 1""")
                .param(limit.key())
                .param(limit.requests() - 1)
                .query((rs, n) -> Duration.ofMillis(Math.max(1, rs.getLong(1))))
                .optional();
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
