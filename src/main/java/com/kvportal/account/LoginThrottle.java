package com.kvportal.account;

import java.time.Duration;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Failed logins per email address, in the database so that every instance counts them together: after
 * {@code max-failures} failures within the window, the address is locked for the lock duration.
 */
@Component
class LoginThrottle {

    private final JdbcClient jdbc;
    private final int maxFailures;
    private final Duration window;
    private final Duration lock;

    LoginThrottle(
            JdbcClient jdbc,
            @Value("${kvportal.login.max-failures:5}") int maxFailures,
            @Value("${kvportal.login.window:PT15M}") Duration window,
            @Value("${kvportal.login.lock:PT15M}") Duration lock) {
        this.jdbc = jdbc;
        this.maxFailures = maxFailures;
        this.window = window;
        this.lock = lock;
    }

    /** How long the address stays locked, if it is. */
    Optional<Duration> lockedFor(String email) {
        return jdbc.sql("select ceil(extract(epoch from locked_until - now()))::bigint from login_failures"
                        + " where email = lower(?) and locked_until > now()")
                .param(email)
                .query(Long.class)
                .optional()
                .map(Duration::ofSeconds);
    }

    void failed(String email) {
        jdbc.sql(
                        """
                        insert into login_failures as f (email, failures, window_start) values (lower(:email), 1, now())
                        on conflict (email) do update set
                            failures = case when f.window_start < now() - :window then 1 else f.failures + 1 end,
                            window_start = case when f.window_start < now() - :window then now() else f.window_start end,
                            locked_until = case
                                when f.window_start >= now() - :window and f.failures + 1 >= :max then now() + :lock
                                else f.locked_until end""")
                .param("email", email)
                .param("window", interval(window))
                .param("lock", interval(lock))
                .param("max", maxFailures)
                .update();
    }

    void succeeded(String email) {
        jdbc.sql("delete from login_failures where email = lower(?)")
                .param(email)
                .update();
    }

    private static org.postgresql.util.PGInterval interval(Duration duration) {
        try {
            return new org.postgresql.util.PGInterval(duration.toSeconds() + " seconds");
        } catch (java.sql.SQLException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
