package com.kvportal.account.twostep;

import com.kvportal.account.AccountEvent;
import com.kvportal.account.AccountProblem;
import com.kvportal.account.AccountProblem.InvalidCode;
import com.kvportal.account.AccountProblem.NoPendingLogin;
import com.kvportal.account.AccountProblem.TotpState;
import com.kvportal.account.Customers;
import com.kvportal.account.credentials.AccountSecurity;
import com.kvportal.common.encryption.EncryptedColumns;
import com.kvportal.common.encryption.SecretBox;
import com.kvportal.common.encryption.SecretColumn;
import com.kvportal.security.Caller;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.session.FindByIndexNameSessionRepository;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Two-step login with TOTP: setting it up (a secret, confirmed by a first code, then ten recovery codes shown once),
 * turning it off, and the login's second step. Setting it up takes the current password; turning it on and off each
 * mail the customer a notice. Between password and code the browser holds an intermediate session that carries no
 * caller, so it can do nothing but {@code POST /api/v1/auth/login/totp}. Wrong codes, at login and when turning it
 * off, count per customer ({@link WrongCodes}), never against the password's lock. A code's time step is accepted
 * once, ever.
 */
@Service
@RequiredArgsConstructor
public class TwoStepLogin implements EncryptedColumns {

    static final Duration PENDING_LIFETIME = Duration.ofMinutes(5);
    static final int RECOVERY_CODES = 10;
    private static final String PENDING = "kvportal.login.pending_second_step";
    /** The shared secret, sealed for its customer's row. */
    private static final SecretColumn SECRET = SecretColumn.of("customers", "totp_secret");

    private final JdbcClient jdbc;
    private final TotpCodes totp;
    private final Customers customers;
    private final WrongCodes wrongCodes;
    private final AccountSecurity security;
    private final ApplicationEventPublisher events;
    private final Clock clock;
    private final SecretBox box;

    /** A password checked, its second step due. */
    record Pending(Caller caller, Instant startedAt) implements Serializable {}

    @Override
    public List<SecretColumn> encryptedColumns() {
        return List.of(SECRET);
    }

    public boolean enabled(UUID customerId) {
        return customers.totpEnabled(customerId);
    }

    /** Starts the intermediate session: a new session id, no caller, found (and ended) with the customer's. */
    public void begin(HttpServletRequest request, Caller caller) {
        HttpSession old = request.getSession(false);
        if (old != null) {
            old.invalidate();
        }
        HttpSession session = request.getSession(true);
        session.setAttribute(PENDING, new Pending(caller, clock.instant()));
        session.setAttribute(
                FindByIndexNameSessionRepository.PRINCIPAL_NAME_INDEX_NAME,
                caller.customerId().toString());
    }

    /** The second step: the caller to sign in, or a failure (counted toward the customer's lock of codes). */
    @Transactional(noRollbackFor = {InvalidCode.class, AccountProblem.CodesLocked.class})
    public Caller complete(HttpServletRequest request, SecondStep step) {
        HttpSession session = request.getSession(false);
        if (session == null
                || !(session.getAttribute(PENDING) instanceof Pending pending)
                || pending.startedAt().plus(PENDING_LIFETIME).isBefore(clock.instant())) {
            throw new NoPendingLogin();
        }
        UUID customerId = pending.caller().customerId();
        Customers.Credentials customer = customers.lock(customerId).orElseThrow(NoPendingLogin::new);
        Optional<Duration> locked = wrongCodes.lockedFor(customerId);
        if (locked.isPresent()) {
            loginFailed(pending, customer, "too_many_attempts");
            throw new AccountProblem.CodesLocked(locked.get());
        }
        if (step.recoveryCode() != null && !step.recoveryCode().isBlank()) {
            if (useRecoveryCode(customerId, step.recoveryCode())) {
                wrongCodes.forget(customerId);
                events.publishEvent(new AccountEvent.RecoveryCodeUsed(
                        customerId,
                        customer.email(),
                        pending.caller().organizationId(),
                        unusedRecoveryCodes(customerId)));
                return pending.caller();
            }
        } else if (acceptCode(customerId, step.code())) {
            wrongCodes.forget(customerId);
            return pending.caller();
        }
        loginFailed(pending, customer, "invalid_code");
        wrongCodes.count(customer);
        throw new InvalidCode(AccountProblem.INVALID_LOGIN_CODE);
    }

    private void loginFailed(Pending pending, Customers.Credentials customer, String reason) {
        events.publishEvent(new AccountEvent.LoginFailed(
                customer.id(), customer.email(), pending.caller().organizationId(), reason));
    }

    /** A new secret, not yet in force, for the customer who knows the password: the first code from it confirms it. */
    @Transactional(noRollbackFor = AccountProblem.ReauthenticationFailed.class)
    public Setup setup(Caller caller, Start body) {
        AccountSecurity.requireSession(caller);
        if (enabled(caller.customerId())) {
            throw new TotpState(
                    AccountProblem.TOTP_ALREADY_ENABLED, "Two-step login is on already; turn it off first.");
        }
        Customers.Credentials customer = security.reauthenticate(caller, body.currentPassword());
        String secret = totp.newSecret();
        jdbc.sql("update customers set totp_secret = ?, totp_last_step = null where id = ?")
                .params(box.seal(secret, SECRET, customer.id()), customer.id())
                .update();
        return new Setup(secret, totp.uri(secret, customer.email()), totp.qrCode(secret, customer.email()));
    }

    @Transactional
    public RecoveryCodes confirm(Caller caller, Code body) {
        AccountSecurity.requireSession(caller);
        Customers.Credentials customer = customers.lock(caller.customerId()).orElseThrow();
        if (enabled(customer.id())) {
            throw new TotpState(AccountProblem.TOTP_ALREADY_ENABLED, "Two-step login is on already.");
        }
        String secret = secret(customer.id())
                .orElseThrow(() -> new TotpState(AccountProblem.TOTP_NOT_STARTED, "Set two-step login up first."));
        OptionalLong step = totp.stepOf(secret, body.code());
        if (step.isEmpty()) {
            throw new InvalidCode(AccountProblem.INVALID_CODE);
        }
        jdbc.sql("update customers set totp_enabled_at = now(), totp_last_step = ? where id = ?")
                .params(step.getAsLong(), customer.id())
                .update();
        dropRecoveryCodes(customer.id());
        List<String> codes =
                List.of(new dev.samstevens.totp.recovery.RecoveryCodeGenerator().generateCodes(RECOVERY_CODES));
        for (String code : codes) {
            jdbc.sql("insert into recovery_codes (customer_id, digest) values (?, ?)")
                    .params(customer.id(), digest(code))
                    .update();
        }
        events.publishEvent(new AccountEvent.TotpEnabled(customer.id(), customer.email(), caller.organizationId()));
        notice(customer.email(), "on");
        return new RecoveryCodes(codes);
    }

    /** Turns it off for the customer who knows the password and has a code; a wrong code counts as at login. */
    @Transactional(
            noRollbackFor = {
                AccountProblem.ReauthenticationFailed.class,
                InvalidCode.class,
                AccountProblem.CodesLocked.class
            })
    public void disable(Caller caller, Disable body) {
        AccountSecurity.requireSession(caller);
        if (!enabled(caller.customerId())) {
            throw new TotpState(AccountProblem.TOTP_NOT_ENABLED, "Two-step login is off.");
        }
        customers.lock(caller.customerId()).orElseThrow();
        wrongCodes.refuseWhileLocked(caller.customerId());
        Customers.Credentials customer = security.reauthenticate(caller, body.currentPassword());
        if (!acceptCode(customer.id(), body.code())) {
            wrongCodes.count(customer);
            throw new InvalidCode(AccountProblem.INVALID_CODE);
        }
        wrongCodes.forget(customer.id());
        jdbc.sql("update customers set totp_secret = null, totp_enabled_at = null, totp_last_step = null where id = ?")
                .param(customer.id())
                .update();
        dropRecoveryCodes(customer.id());
        events.publishEvent(new AccountEvent.TotpDisabled(customer.id(), customer.email(), caller.organizationId()));
        notice(customer.email(), "off");
    }

    /** Tells the customer that two-step login was turned on or off ({@code how}), in the change's transaction. */
    private void notice(String email, String how) {
        security.securityNotice(email, "Two-step login was turned " + how, "two-step-login-changed", how);
    }

    /** A code of an unused time step, later than the last one accepted; the step is used up in the same statement. */
    private boolean acceptCode(UUID customerId, @Nullable String code) {
        Optional<String> secret = secret(customerId);
        if (secret.isEmpty()) {
            return false;
        }
        OptionalLong step = totp.stepOf(secret.get(), code);
        return step.isPresent()
                && jdbc.sql(
                                        """
                                update customers set totp_last_step = :step
                                where id = :id and totp_enabled_at is not null
                                  and (totp_last_step is null or totp_last_step < :step)""")
                                .param("step", step.getAsLong())
                                .param("id", customerId)
                                .update()
                        == 1;
    }

    private boolean useRecoveryCode(UUID customerId, String code) {
        return jdbc.sql(
                                "update recovery_codes set used_at = now() where customer_id = ? and digest = ? and used_at is null")
                        .params(customerId, digest(code))
                        .update()
                == 1;
    }

    private void dropRecoveryCodes(UUID customerId) {
        jdbc.sql("delete from recovery_codes where customer_id = ?")
                .param(customerId)
                .update();
    }

    private int unusedRecoveryCodes(UUID customerId) {
        return jdbc.sql("select count(*) from recovery_codes where customer_id = ? and used_at is null")
                .param(customerId)
                .query(Integer.class)
                .single();
    }

    private Optional<String> secret(UUID customerId) {
        return jdbc.sql("select totp_secret from customers where id = ? and totp_secret is not null")
                .param(customerId)
                .query(String.class)
                .optional()
                .map(stored -> box.open(stored, SECRET, customerId));
    }

    /** Recovery codes are compared case-insensitively, with or without their dashes and spaces. */
    private static byte[] digest(String code) {
        String normalized = code.replaceAll("[\\s-]", "").toLowerCase(Locale.ROOT);
        try {
            return MessageDigest.getInstance("SHA-256").digest(normalized.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
