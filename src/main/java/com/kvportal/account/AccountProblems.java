package com.kvportal.account;

import com.kvportal.common.web.ProblemException;
import java.time.Duration;
import org.springframework.http.HttpStatus;

/** The ways an account operation fails, each with its stable problem code. */
final class AccountProblems {

    private AccountProblems() {}

    static final class EmailTaken extends ProblemException {
        EmailTaken() {
            super(HttpStatus.CONFLICT, "email_taken", "An account with this email address exists already.");
        }
    }

    static final class InvalidCredentials extends ProblemException {
        InvalidCredentials() {
            super(HttpStatus.UNAUTHORIZED, "invalid_credentials", "The email address or the password is wrong.");
            // every 401 carries a challenge (RFC 9110 15.5.2); the same one as the portal calls
            withHeader("WWW-Authenticate", "Bearer");
        }
    }

    static final class TooManyAttempts extends ProblemException {
        TooManyAttempts(Duration retryAfter) {
            super(
                    HttpStatus.TOO_MANY_REQUESTS,
                    "too_many_attempts",
                    "Too many failed logins for this email address; try again in " + retryAfter.toSeconds() + " s.");
            withHeader("Retry-After", Long.toString(Math.max(1, retryAfter.toSeconds())));
        }
    }

    static final class ProjectNotFound extends ProblemException {
        ProjectNotFound() {
            super(HttpStatus.NOT_FOUND, "project_not_found", "No project with this id in your organizations.");
        }
    }

    static final class ProjectLimitReached extends ProblemException {
        ProjectLimitReached(int limit) {
            super(HttpStatus.CONFLICT, "project_limit_reached", "The organization already has " + limit + " projects.");
        }
    }

    static final class SessionRequired extends ProblemException {
        SessionRequired() {
            this("An API key is bound to its project; switching projects needs a signed-in session.");
        }

        SessionRequired(String detail) {
            super(HttpStatus.BAD_REQUEST, "session_required", detail);
        }
    }

    static final class SessionNotFound extends ProblemException {
        SessionNotFound() {
            super(HttpStatus.NOT_FOUND, "session_not_found", "No session of yours with this id.");
        }
    }
}
