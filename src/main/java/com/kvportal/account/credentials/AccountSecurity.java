package com.kvportal.account.credentials;

import com.kvportal.account.AccountEvent;
import com.kvportal.account.AccountProblem;
import com.kvportal.account.AccountProblem.EmailTaken;
import com.kvportal.account.AccountProblem.ReauthenticationFailed;
import com.kvportal.account.AccountProblem.TokenInvalid;
import com.kvportal.account.CustomerSessions;
import com.kvportal.account.Customers;
import com.kvportal.account.LoginThrottle;
import com.kvportal.account.PasswordCheck;
import com.kvportal.account.Project;
import com.kvportal.account.Projects;
import com.kvportal.account.credentials.AccountTokens.Purpose;
import com.kvportal.common.AppBaseUrl;
import com.kvportal.common.limits.TooManyRequests;
import com.kvportal.common.limits.WindowLimits;
import com.kvportal.mail.Mail;
import com.kvportal.mail.Mailer;
import com.kvportal.security.Caller;
import com.kvportal.security.SessionCaller;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.event.EventListener;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * What a customer does for the account's safety, and what mail it takes: verifying the address, resetting a
 * forgotten password, changing password and address (docs/mail.md, Account security). Every link's token is single use
 * and expiring ({@link AccountTokens}); every message goes through the outbox in the change's transaction.
 */
@Service
@RequiredArgsConstructor
public class AccountSecurity {

    static final Duration VERIFY_LIFETIME = Duration.ofHours(24);
    static final Duration RESET_LIFETIME = Duration.ofMinutes(30);
    static final Duration EMAIL_CHANGE_LIFETIME = Duration.ofHours(24);
    static final int MAX_RESENDS_PER_HOUR = 5;
    static final int MAX_EMAIL_CHANGES_PER_HOUR = 3;
    private static final Duration HOUR = Duration.ofHours(1);

    private final Customers customers;
    private final Projects projects;
    private final AccountTokens tokens;
    private final PasswordResetRequests resetRequests;
    private final CustomerSessions sessions;
    private final LoginThrottle throttle;
    private final PasswordEncoder passwords;
    private final PasswordCheck passwordCheck;
    private final Mailer mailer;
    private final WindowLimits windowLimits;
    private final AppBaseUrl baseUrl;
    private final ApplicationEventPublisher events;
    private final JdbcClient jdbc;

    /**
     * Signup sends the first verification link, in the signup's transaction, unless the address counts as verified
     * already (a signup from an invitation's link).
     */
    @EventListener
    void signedUp(AccountEvent.SignedUp signup) {
        if (customers.emailVerified(signup.customerId())) {
            return;
        }
        sendVerification(signup.customerId(), signup.email(), false);
    }

    @Transactional
    EmailVerified verifyEmail(TokenBody body) {
        Customers.Credentials customer = redeemAtCurrentAddress(body.token(), Purpose.VERIFY_EMAIL);
        if (!customers.emailVerified(customer.id())) {
            customers.markEmailVerified(customer.id());
            events.publishEvent(
                    new AccountEvent.EmailVerified(customer.id(), customer.email(), organizationOf(customer.id())));
        }
        return new EmailVerified(customer.email(), true);
    }

    @Transactional
    void resendVerification(Caller caller) {
        requireSession(caller);
        Customers.Credentials customer = customers.lock(caller.customerId()).orElseThrow();
        if (customers.emailVerified(customer.id())) {
            throw AccountProblem.EMAIL_ALREADY_VERIFIED.exception();
        }
        if (tokens.resentWithin(customer.id(), Purpose.VERIFY_EMAIL, HOUR) >= MAX_RESENDS_PER_HOUR) {
            throw new TooManyRequests("Too many verification emails within the last hour.", HOUR);
        }
        sendVerification(customer.id(), customer.email(), true);
    }

    /**
     * Uses a link's token and answers its customer, locked; refused as {@code token_invalid} when the token is not a
     * live one of {@code purpose}, or was sent to an address the account no longer has (it proves nothing then).
     */
    private Customers.Credentials redeemAtCurrentAddress(@Nullable String token, Purpose purpose) {
        AccountTokens.Redeemed redeemed = tokens.redeem(token, purpose).orElseThrow(TokenInvalid::new);
        Customers.Credentials customer = customers.lock(redeemed.customerId()).orElseThrow(TokenInvalid::new);
        if (!customer.email().equalsIgnoreCase(redeemed.email())) {
            throw new TokenInvalid();
        }
        return customer;
    }

    private void sendVerification(UUID customerId, String email, boolean resent) {
        String token = tokens.issue(customerId, Purpose.VERIFY_EMAIL, email, VERIFY_LIFETIME, resent);
        mailLink(email, "Confirm your email address", "verify-email", "/verify-email", token);
    }

    /**
     * A reset link for a known address; the same answer, after the same work of the database, for an unknown one.
     * The limits ({@link PasswordResetRequests}) come first and count every request, known address or not, so that
     * they reveal nothing either.
     */
    @Transactional
    void requestPasswordReset(ResetRequest request, String client) {
        String email = Objects.requireNonNull(request.email()).strip();
        resetRequests.admit(email, client);
        Optional<Customers.Credentials> customer = customers.findByEmail(email);
        if (customer.isEmpty()) {
            return;
        }
        UUID customerId = customer.get().id();
        String address = customer.get().email();
        tokens.voidLive(customerId, Purpose.RESET_PASSWORD);
        String token = tokens.issue(customerId, Purpose.RESET_PASSWORD, address, RESET_LIFETIME, false);
        mailLink(address, "Reset your password", "password-reset", "/reset-password", token);
        events.publishEvent(new AccountEvent.PasswordResetRequested(customerId, address, organizationOf(customerId)));
    }

    /**
     * Sets the password from a reset link: every session of the customer ends, a pending change of address ends, the
     * login lock is lifted and the address counts as verified (the link reached it). A weak password is refused before the token is used.
     */
    @Transactional
    void confirmPasswordReset(ResetConfirmation confirmation) {
        Customers.Credentials customer = redeemAtCurrentAddress(confirmation.token(), Purpose.RESET_PASSWORD);
        customers.setPasswordHash(customer.id(), passwords.encode(Objects.requireNonNull(confirmation.password())));
        // whoever asked for a new address may have known the old password: their link ends with it
        tokens.voidLive(customer.id(), Purpose.CHANGE_EMAIL);
        customers.markEmailVerified(customer.id());
        throttle.succeeded(customer.email());
        int ended = sessions.endAll(customer.id());
        securityNotice(customer.email(), "Your password was reset", "password-changed", "reset");
        events.publishEvent(
                new AccountEvent.PasswordReset(customer.id(), customer.email(), organizationOf(customer.id()), ended));
    }

    /**
     * A new password for the signed-in customer; the customer's other sessions end, this one stays, and so does a
     * pending change of address (its link stops working).
     */
    @Transactional(noRollbackFor = ReauthenticationFailed.class)
    void changePassword(Caller caller, PasswordChange change, HttpServletRequest request) {
        requireSession(caller);
        Customers.Credentials customer = reauthenticate(caller, change.currentPassword());
        customers.setPasswordHash(customer.id(), passwords.encode(Objects.requireNonNull(change.newPassword())));
        tokens.voidLive(customer.id(), Purpose.CHANGE_EMAIL);
        int ended = sessions.endOthers(customer.id(), request);
        securityNotice(customer.email(), "Your password was changed", "password-changed", "changed");
        events.publishEvent(
                new AccountEvent.PasswordChanged(customer.id(), customer.email(), caller.organizationId(), ended));
    }

    /**
     * A link to the new address (the change happens when it is opened) and a notice to the current one; the link of
     * an earlier request stops working. At most {@value #MAX_EMAIL_CHANGES_PER_HOUR} an hour, since each one mails an
     * address of the caller's choosing.
     */
    @Transactional(noRollbackFor = ReauthenticationFailed.class)
    void requestEmailChange(Caller caller, EmailChange change) {
        requireSession(caller);
        String newEmail = Objects.requireNonNull(change.newEmail()).strip();
        Customers.Credentials customer = reauthenticate(caller, change.currentPassword());
        if (customers.emailExists(newEmail)) {
            throw new EmailTaken();
        }
        windowLimits.take(new WindowLimits.Limit(
                "email-changes:" + customer.id(),
                MAX_EMAIL_CHANGES_PER_HOUR,
                HOUR,
                "You asked for " + MAX_EMAIL_CHANGES_PER_HOUR
                        + " email changes within the last hour, the most one may; the newest link still works."));
        tokens.voidLive(customer.id(), Purpose.CHANGE_EMAIL);
        String token = tokens.issue(customer.id(), Purpose.CHANGE_EMAIL, newEmail, EMAIL_CHANGE_LIFETIME, false);
        mailer.send(new Mail(
                newEmail,
                "Confirm your new email address",
                "email-change",
                Map.of("newEmail", newEmail, "link", baseUrl.resolveWithToken("/confirm-email-change", token))));
        mailer.send(new Mail(
                customer.email(),
                "Your email address is about to change",
                "email-change-notice",
                Map.of(
                        "email",
                        customer.email(),
                        "newEmail",
                        newEmail,
                        "link",
                        baseUrl.resolve("/dashboard/account"))));
    }

    @Transactional
    EmailConfirmed confirmEmailChange(TokenBody body) {
        AccountTokens.Redeemed redeemed =
                tokens.redeem(body.token(), Purpose.CHANGE_EMAIL).orElseThrow(TokenInvalid::new);
        Customers.Credentials customer = customers.lock(redeemed.customerId()).orElseThrow(TokenInvalid::new);
        if (!customer.email().equalsIgnoreCase(redeemed.email()) && customers.emailExists(redeemed.email())) {
            throw new EmailTaken();
        }
        try {
            customers.setVerifiedEmail(customer.id(), redeemed.email());
        } catch (DuplicateKeyException e) {
            throw new EmailTaken();
        }
        events.publishEvent(new AccountEvent.EmailChanged(
                customer.id(), customer.email(), redeemed.email(), organizationOf(customer.id())));
        return new EmailConfirmed(redeemed.email());
    }

    /** Ends one of the customer's sessions (this one too, when named). */
    @Transactional
    void endSession(Caller caller, UUID handle, HttpServletRequest request) {
        requireSession(caller);
        boolean current = sessions.isCurrent(handle, request);
        if (!sessions.end(caller.customerId(), handle)) {
            throw AccountProblem.SESSION_NOT_FOUND.exception();
        }
        sessionsEnded(caller, "one", 1);
        if (current) {
            SessionCaller.signOut(request);
        }
    }

    @Transactional
    void endOtherSessions(Caller caller, HttpServletRequest request) {
        requireSession(caller);
        sessionsEnded(caller, "others", sessions.endOthers(caller.customerId(), request));
    }

    private void sessionsEnded(Caller caller, String how, int count) {
        events.publishEvent(new AccountEvent.SessionEnded(
                caller.customerId(),
                customers.emailOf(caller.customerId()).orElse(""),
                caller.organizationId(),
                how,
                count));
    }

    boolean emailVerified(UUID customerId) {
        return customers.emailVerified(customerId);
    }

    /**
     * The signed-in customer proves to know the password again. Wrong guesses count toward the address's login
     * lock, so that a stolen session cannot try passwords faster than a login can.
     */
    public Customers.Credentials reauthenticate(Caller caller, @Nullable String password) {
        Customers.Credentials customer = customers.lock(caller.customerId()).orElseThrow();
        Optional<Duration> locked = throttle.attempt(customer.email());
        if (locked.isPresent()) {
            throw new AccountProblem.TooManyAttempts(locked.get());
        }
        if (password == null || !passwordCheck.matches(password, Optional.of(customer))) {
            throw new ReauthenticationFailed();
        }
        throttle.succeeded(customer.email());
        return customer;
    }

    /** Mails {@code to} the link to {@code page} that carries the token; the template shows the address and the link. */
    private void mailLink(String to, String subject, String template, String page, String token) {
        mailer.send(
                new Mail(to, subject, template, Map.of("email", to, "link", baseUrl.resolveWithToken(page, token))));
    }

    /**
     * Tells the customer by mail that their account's security changed ({@code how}: the template words it), with the
     * link to reset the password in case it was not them; in the change's transaction.
     */
    public void securityNotice(String email, String subject, String template, String how) {
        mailer.send(new Mail(
                email,
                subject,
                template,
                Map.of("email", email, "how", how, "link", baseUrl.resolve("/forgot-password"))));
    }

    public static void requireSession(Caller caller) {
        if (caller.viaApiKey()) {
            throw new AccountProblem.SessionRequired(
                    "The account's security settings take a signed-in session, not an API key.");
        }
    }

    /**
     * The organization whose audit log records the customer's own security events: the first one joined. Null for a
     * customer in no organization (all left or removed): such events are recorded nowhere.
     */
    @SuppressWarnings("NullAway")
    private UUID organizationOf(UUID customerId) {
        return projects.ofCustomer(customerId).stream()
                .findFirst()
                .map(Project::organizationId)
                .orElse(null);
    }
}
