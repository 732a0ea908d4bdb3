package com.kvportal.account.twostep;

import com.kvportal.account.AccountProblem.CodesLocked;
import com.kvportal.account.Customers;
import com.kvportal.account.LoginThrottle;
import com.kvportal.account.LoginThrottleProperties;
import com.kvportal.common.AppBaseUrl;
import com.kvportal.common.scheduling.PeriodicJob;
import com.kvportal.mail.Mail;
import com.kvportal.mail.Mailer;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Wrong second-factor codes of a customer (TOTP or recovery codes, at login and when turning two-step login off),
 * counted in the database apart from wrong passwords, so that every session, address, instance and restart sees the
 * same count, and a correct password resets nothing. The {@code max-failures}-th wrong code within the window of
 * {@code kvportal.login.*} locks every code of the customer for the lock's length (a correct one too) and mails the
 * customer a notice, once per lock; a correct code forgets the wrong ones before it. Callers hold the customer's row
 * lock ({@link Customers#lock}), so that codes of one customer are counted one after the other.
 */
@Component
@RequiredArgsConstructor
public class WrongCodes implements PeriodicJob {

    private final JdbcClient jdbc;
    private final Mailer mailer;
    private final AppBaseUrl baseUrl;
    private final LoginThrottleProperties settings;

    /** Refuses any code while the customer's codes are locked. */
    void refuseWhileLocked(UUID customerId) {
        Optional<Duration> locked = lockedFor(customerId);
        if (locked.isPresent()) {
            throw new CodesLocked(locked.get());
        }
    }

    /** How long the customer's codes stay locked, if they are. */
    Optional<Duration> lockedFor(UUID customerId) {
        return jdbc.sql(
                        """
                        select ceil(extract(epoch from codes_locked_until - now()))::bigint from customers
                        where id = ? and codes_locked_until > now()""")
                .param(customerId)
                .query(Long.class)
                .optional()
                .map(Duration::ofSeconds);
    }

    /**
     * Counts a wrong code; the one that reaches the limit locks the customer's codes, mails the notice and is refused
     * as {@link CodesLocked} (the caller's transaction must commit it).
     */
    void count(Customers.Credentials customer) {
        jdbc.sql("insert into wrong_codes (customer_id) values (?)")
                .param(customer.id())
                .update();
        int recent = jdbc.sql("select count(*) from wrong_codes where customer_id = ? and failed_at > now() - ?")
                .params(customer.id(), LoginThrottle.interval(settings.window()))
                .query(Integer.class)
                .single();
        if (recent < settings.maxFailures()) {
            return;
        }
        jdbc.sql("update customers set codes_locked_until = now() + ? where id = ?")
                .params(LoginThrottle.interval(settings.lock()), customer.id())
                .update();
        forget(customer.id());
        mailer.send(new Mail(
                customer.email(),
                "Two-step login of your account is locked",
                "two-step-login-locked",
                Map.of(
                        "email",
                        customer.email(),
                        "wrongCodes",
                        settings.maxFailures(),
                        "minutes",
                        settings.lock().toMinutes(),
                        "link",
                        baseUrl.resolve("/forgot-password"))));
        throw new CodesLocked(settings.lock());
    }

    /** A correct code: the wrong ones before it count no more. */
    void forget(UUID customerId) {
        jdbc.sql("delete from wrong_codes where customer_id = ?")
                .param(customerId)
                .update();
    }

    /** Drops wrong codes older than the window: they count for nothing any more. */
    void forgetStale() {
        jdbc.sql("delete from wrong_codes where failed_at <= now() - ?")
                .param(LoginThrottle.interval(settings.window()))
                .update();
    }

    /** Every 10 minutes, from a minute after start-up. */
    @Override
    public Schedule schedule() {
        return new Schedule("wrong-codes-cleanup", Duration.ofMinutes(1), Duration.ofMinutes(10), this::forgetStale);
    }
}
