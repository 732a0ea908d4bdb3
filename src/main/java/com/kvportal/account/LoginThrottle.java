package com.kvportal.account;

import com.kvportal.common.scheduling.PeriodicJob;
import java.time.Duration;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Login attempts per email address, in the database so that every instance counts them together: the
 * attempt after {@code max-failures} failed ones within the window is refused, and the address stays locked
 * for the lock duration, even for the right password. A successful login resets the count.
 */
@Component
public class LoginThrottle implements PeriodicJob {

    /**
     * The counting starts afresh once the lock has run out, or without a lock once the window has passed (a lock set
     * late in a window runs its full length: the window's end does not lift it).
     */
    private static final String STALE = "(case when f.locked_until is not null then f.locked_until <= now()"
            + " else f.window_start < now() - :window end)";

    private final JdbcClient jdbc;
    private final int maxFailures;
    private final Duration window;
    private final Duration lock;

    LoginThrottle(JdbcClient jdbc, LoginThrottleProperties settings) {
        this.jdbc = jdbc;
        this.maxFailures = settings.maxFailures();
        this.window = settings.window();
        this.lock = settings.lock();
    }

    /**
     * Counts a login attempt before its password is checked, in one statement, so that attempts racing in
     * parallel cannot slip past the limit together.
     *
     * @return how long the address stays locked when this attempt is over the limit, else empty
     */
    public Optional<Duration> attempt(String email) {
        return jdbc.sql(
                        """
                        insert into login_failures as f (email, failures, window_start) values (lower(:email), 1, now())
                        on conflict (email) do update set
                            failures = case when %1$s then 1 else f.failures + 1 end,
                            window_start = case when %1$s then now() else f.window_start end,
                            locked_until = case
                                when %1$s then null
                                when f.locked_until > now() then f.locked_until
                                when f.failures + 1 > :max then now() + :lock
                                else null end
                        returning ceil(extract(epoch from locked_until - now()))::bigint"""
                                .formatted(STALE))
                .param("email", email)
                .param("window", interval(window))
                .param("lock", interval(lock))
                .param("max", maxFailures)
                .query((rs, n) -> rs.getObject(1, Long.class))
                .optional()
                .filter(seconds -> seconds != null && seconds > 0)
                .map(Duration::ofSeconds);
    }

    /** A successful login forgets the attempts of the address. */
    public void succeeded(String email) {
        jdbc.sql("delete from login_failures where email = lower(?)")
                .param(email)
                .update();
    }

    /**
     * Forgets the failures whose window has passed and whose lock (if any) has run out: they count for nothing any
     * more ({@link #attempt} starts afresh on them), and a spray of made-up emails must not fill the table for good.
     */
    void forgetStale() {
        jdbc.sql("delete from login_failures f where " + STALE)
                .param("window", interval(window))
                .update();
    }

    /** Every 10 minutes, from a minute after start-up. */
    @Override
    public Schedule schedule() {
        return new Schedule("login-throttle-cleanup", Duration.ofMinutes(1), Duration.ofMinutes(10), this::forgetStale);
    }

    /** A duration as a PostgreSQL interval parameter. */
    public static org.postgresql.util.PGInterval interval(Duration duration) {
        try {
            return new org.postgresql.util.PGInterval(duration.toSeconds() + " seconds");
        } catch (java.sql.SQLException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
