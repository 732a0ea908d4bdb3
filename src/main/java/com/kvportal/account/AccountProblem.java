package com.kvportal.account;

import static com.kvportal.common.web.ProblemCode.define;

import com.kvportal.common.web.CommonProblem;
import com.kvportal.common.web.ProblemCode;
import com.kvportal.common.web.ProblemCodes;
import com.kvportal.common.web.ProblemException;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.time.Duration;
import lombok.Getter;
import lombok.RequiredArgsConstructor;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

/** The problem codes of accounts, projects, sessions and sign-in (see {@link ProblemCode}). */
@Getter
@RequiredArgsConstructor
public enum AccountProblem implements ProblemCode {
    ALREADY_MEMBER(define(
            HttpStatus.CONFLICT,
            "already_member",
            "The address belongs to a member of the organization already.",
            "This address belongs to a member of the organization already.")),
    EMAIL_ALREADY_VERIFIED(define(
            HttpStatus.CONFLICT,
            "email_already_verified",
            "The customer's email address is verified already: no new link is sent.",
            "The email address is verified already.")),
    EMAIL_TAKEN(define(
            HttpStatus.CONFLICT,
            "email_taken",
            "An account with this email address (case-insensitive) exists.",
            "An account with this email address exists already.")),
    INVITATION_EMAIL_MISMATCH(define(
            HttpStatus.FORBIDDEN,
            "invitation_email_mismatch",
            "The invitation went to another address, or the address is not verified yet.",
            "This invitation was sent to another email address (or yours is not verified yet).")),
    INVITATION_NOT_FOUND(define(
            HttpStatus.NOT_FOUND,
            "invitation_not_found",
            "No pending invitation with this id in the current organization.",
            "No pending invitation with this id in the current organization.")),
    INVALID_CODE(define(
            HttpStatus.BAD_REQUEST,
            "invalid_code",
            "The TOTP code is wrong, outside its window or used already.",
            "The code is wrong, expired or was used already.")),
    INVALID_LOGIN_CODE(define(
                    HttpStatus.UNAUTHORIZED,
                    "invalid_code",
                    "The login's second step failed: the code is wrong, outside its window or used already.",
                    "The code is wrong, expired or was used already.")
            .withHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer")),
    INVALID_CREDENTIALS(define(
                    HttpStatus.UNAUTHORIZED,
                    "invalid_credentials",
                    "The email address or the password is wrong (one answer for both).",
                    "The email address or the password is wrong.")
            .withHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer")),
    LAST_OWNER(define(
            HttpStatus.CONFLICT,
            "last_owner",
            "The organization's last owner cannot be demoted, removed or leave.",
            "The organization needs at least one owner; make another member owner first.")),
    MEMBER_LIMIT_REACHED(define(
            HttpStatus.CONFLICT,
            "member_limit_reached",
            "The organization has 100 members and pending invitations already.",
            "The organization has 100 members and pending invitations already.")),
    MEMBER_NOT_FOUND(define(
            HttpStatus.NOT_FOUND,
            "member_not_found",
            "No member with this customer id in the current organization.",
            "No member with this customer id in the current organization.")),
    ORGANIZATION_LIMIT_REACHED(define(
            HttpStatus.CONFLICT,
            "organization_limit_reached",
            "The customer owns 20 organizations already.",
            "You own 20 organizations already, the most one customer may; delete one or hand its ownership to"
                    + " another member first.")),
    PROJECT_LIMIT_REACHED(define(
            HttpStatus.CONFLICT,
            "project_limit_reached",
            "The organization has 100 projects already.",
            "The organization already has 100 projects.")),
    PROJECT_NOT_FOUND(define(
            HttpStatus.NOT_FOUND,
            "project_not_found",
            "No project with this id in the customer's organizations.",
            "No project with this id in your organizations.")),
    REAUTHENTICATION_FAILED(define(
            HttpStatus.FORBIDDEN,
            "reauthentication_failed",
            "The current password sent to confirm a change is wrong.",
            "The current password is wrong.")),
    SESSION_REQUIRED(define(
            HttpStatus.BAD_REQUEST,
            "session_required",
            "An API key is bound to its project; switching projects needs a session.",
            "An API key is bound to its project; switching projects needs a signed-in session.")),
    SESSION_NOT_FOUND(define(
            HttpStatus.NOT_FOUND,
            "session_not_found",
            "No session of the customer with this id (also an ended one).",
            "No session of yours with this id.")),
    TOKEN_INVALID(define(
            HttpStatus.BAD_REQUEST,
            "token_invalid",
            "The token of a mailed link is unknown, used, expired or replaced by a newer one.",
            "The link is not valid: it was used already, has expired or was replaced by a newer one.")),
    TOTP_ALREADY_ENABLED(define(
            HttpStatus.CONFLICT,
            "totp_already_enabled",
            "Two-step login is on already.",
            "Two-step login is on already; turn it off first.")),
    TOTP_NOT_ENABLED(define(
            HttpStatus.CONFLICT,
            "totp_not_enabled",
            "Two-step login is off: there is nothing to turn off.",
            "Two-step login is off.")),
    TOTP_NOT_STARTED(define(
            HttpStatus.CONFLICT,
            "totp_not_started",
            "No TOTP secret was set up to confirm.",
            "Set two-step login up first.")),
    TOO_MANY_ATTEMPTS(define(
                    HttpStatus.TOO_MANY_REQUESTS,
                    "too_many_attempts",
                    "Too many failed logins for this email address, or too many wrong two-step login codes for this"
                            + " account; retry after the given delay.",
                    "Too many failed logins for this email address; try again in 900 s.")
            .withHeader(HttpHeaders.RETRY_AFTER, "900"));

    private final Definition definition;

    /** Names the codes of this enum that an operation answers, on the method next to its {@code @ApiContract}. */
    @Retention(RetentionPolicy.RUNTIME)
    @ProblemCodes
    public @interface Codes {
        AccountProblem[] value();
    }

    /**
     * Names the codes of an operation that asks the signed-in session for the current password again
     * ({@code AccountSecurity.reauthenticate}): a wrong password, too many wrong ones (the login lock), and a call
     * with an API key, which has no password to give. Leave {@code value} as it is; the operation's other codes go in
     * its {@link Codes}.
     */
    @Retention(RetentionPolicy.RUNTIME)
    @ProblemCodes
    public @interface Reauthenticates {
        AccountProblem[] value() default {REAUTHENTICATION_FAILED, TOO_MANY_ATTEMPTS, SESSION_REQUIRED};
    }

    // the exceptions of these codes, as the service throws them

    public static final class EmailTaken extends ProblemException {
        public EmailTaken() {
            super(EMAIL_TAKEN);
        }
    }

    public static final class InvalidCredentials extends ProblemException {
        public InvalidCredentials() {
            super(INVALID_CREDENTIALS);
            // every 401 carries a challenge (RFC 9110 15.5.2); the same one as the portal calls
            withHeader("WWW-Authenticate", "Bearer");
        }
    }

    public static class TooManyAttempts extends ProblemException {
        public TooManyAttempts(Duration retryAfter) {
            this(
                    retryAfter,
                    "Too many failed logins for this email address; try again in " + retryAfter.toSeconds() + " s.");
        }

        public TooManyAttempts(Duration retryAfter, String detail) {
            super(TOO_MANY_ATTEMPTS, detail);
            withHeader("Retry-After", Long.toString(Math.max(1, retryAfter.toSeconds())));
        }
    }

    public static final class ProjectLimitReached extends ProblemException {
        public ProjectLimitReached(int limit) {
            super(PROJECT_LIMIT_REACHED, "The organization already has " + limit + " projects.");
        }
    }

    public static final class SessionRequired extends ProblemException {
        public SessionRequired() {
            super(SESSION_REQUIRED);
        }

        public SessionRequired(String detail) {
            super(SESSION_REQUIRED, detail);
        }
    }

    public static final class MemberLimitReached extends ProblemException {
        public MemberLimitReached(int limit) {
            super(MEMBER_LIMIT_REACHED, "The organization has " + limit + " members and pending invitations already.");
        }
    }

    public static final class OrganizationLimitReached extends ProblemException {
        public OrganizationLimitReached(int limit) {
            super(
                    ORGANIZATION_LIMIT_REACHED,
                    "You own " + limit + " organizations already, the most one customer may; delete one or hand its"
                            + " ownership to another member first.");
        }
    }

    public static final class TokenInvalid extends ProblemException {
        public TokenInvalid() {
            super(
                    TOKEN_INVALID,
                    "The link is not valid: it was used already, has expired or was replaced by a newer one. Ask for"
                            + " a new one.");
        }
    }

    public static final class ReauthenticationFailed extends ProblemException {
        public ReauthenticationFailed() {
            super(REAUTHENTICATION_FAILED);
        }
    }

    public static final class InvalidCode extends ProblemException {
        /** {@code problem}: {@link AccountProblem#INVALID_CODE} or, at login, {@link AccountProblem#INVALID_LOGIN_CODE}. */
        public InvalidCode(AccountProblem problem) {
            super(problem);
            if (problem == INVALID_LOGIN_CODE) {
                withHeader("WWW-Authenticate", "Bearer");
            }
        }
    }

    public static final class NoPendingLogin extends ProblemException {
        public NoPendingLogin() {
            super(
                    CommonProblem.UNAUTHENTICATED,
                    "No login waits for its second step here: log in with email and password first.");
            withHeader("WWW-Authenticate", "Bearer");
        }
    }

    public static final class TotpState extends ProblemException {
        public TotpState(AccountProblem problem, String detail) {
            super(problem, detail);
        }
    }

    /** Codes of a customer refused until the lock has passed: 429 {@code too_many_attempts}. */
    public static final class CodesLocked extends TooManyAttempts {
        public CodesLocked(Duration retryAfter) {
            super(
                    retryAfter,
                    "Too many wrong codes for this account: two-step login refuses every code for "
                            + Math.max(1, retryAfter.toSeconds())
                            + " s. If you did not enter them, someone knows your password: change it once you are"
                            + " signed in again.");
        }
    }
}
