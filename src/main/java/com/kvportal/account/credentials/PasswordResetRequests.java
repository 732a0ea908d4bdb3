package com.kvportal.account.credentials;

import com.kvportal.common.limits.LimitProperties;
import com.kvportal.common.limits.TooManyRequests;
import com.kvportal.common.validation.EmailAddress;
import java.time.Duration;
import lombok.RequiredArgsConstructor;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The SQL of password reset requests and their limits: at most {@code kvportal.limits.password-resets} (5) per email
 * address and {@code password-resets-per-address} (5) per client address within {@code password-reset-window} (1 h), known address or not (so that the
 * limits reveal nothing), on every instance together. Nothing here ever waits: a
 * request beyond a limit is refused by one read before anything else happens, and two requests racing for the same
 * address or from the same client are decided with {@code pg_try_advisory_xact_lock}, the later one refused at once,
 * so that a flood from one client parks neither request threads nor database connections.
 */
@Repository
@RequiredArgsConstructor
class PasswordResetRequests {

    private final JdbcClient jdbc;
    private final LimitProperties limits;

    /**
     * Counts the request, in the caller's transaction.
     *
     * @throws TooManyRequests when the address or the client has had its requests within the hour, or another request
     *     for the address or from the client is being decided this very moment
     */
    @Transactional(propagation = Propagation.MANDATORY)
    void admit(String email, String client) {
        refuseBeyondTheLimits(email, client);
        // one at a time per address and per client, so that racing requests cannot slip past the limits together
        boolean alone = jdbc.sql(
                        """
                        select pg_try_advisory_xact_lock(hashtext('password_reset:' || lower(?)))
                           and pg_try_advisory_xact_lock(hashtext('password_reset_client:' || ?))""")
                .params(email, client)
                .query(Boolean.class)
                .single();
        if (!alone) {
            throw new TooManyRequests(
                    "Another password reset request for this address, or from this client, is being handled.",
                    Duration.ofSeconds(1));
        }
        refuseBeyondTheLimits(email, client);
        jdbc.sql("insert into password_reset_requests (email, client) values (?, ?)")
                .params(
                        email.length() > EmailAddress.MAX_LENGTH ? email.substring(0, EmailAddress.MAX_LENGTH) : email,
                        client)
                .update();
    }

    private void refuseBeyondTheLimits(String email, String client) {
        boolean spent = jdbc.sql(
                        """
                        select (select count(*) from password_reset_requests
                                where lower(email) = lower(:email) and requested_at > now() - :window * interval '1 second')
                                   >= :max
                            or (select count(*) from password_reset_requests
                                where client = :client and requested_at > now() - :window * interval '1 second')
                                   >= :perClient""")
                .param("email", email)
                .param("client", client)
                .param("window", limits.passwordResetWindow().toSeconds())
                .param("max", limits.passwordResets())
                .param("perClient", limits.passwordResetsPerAddress())
                .query(Boolean.class)
                .single();
        if (spent) {
            throw new TooManyRequests(
                    "Too many password reset requests for this address or from this client.",
                    limits.passwordResetWindow());
        }
    }

    /** Requests whose hour has passed count toward no limit any more. */
    int deleteExpired() {
        return jdbc.sql("delete from password_reset_requests where requested_at <= now() - ? * interval '1 second'")
                .param(limits.passwordResetWindow().toSeconds())
                .update();
    }
}
