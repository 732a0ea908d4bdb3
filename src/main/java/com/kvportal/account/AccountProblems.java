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

    static final class MemberNotFound extends ProblemException {
        MemberNotFound() {
            super(
                    HttpStatus.NOT_FOUND,
                    "member_not_found",
                    "No member with this customer id in the current organization.");
        }
    }

    static final class InvitationNotFound extends ProblemException {
        InvitationNotFound() {
            super(
                    HttpStatus.NOT_FOUND,
                    "invitation_not_found",
                    "No pending invitation with this id in the current organization.");
        }
    }

    static final class LastOwner extends ProblemException {
        LastOwner() {
            super(
                    HttpStatus.CONFLICT,
                    "last_owner",
                    "The organization needs at least one owner; make another member owner first.");
        }
    }

    static final class AlreadyMember extends ProblemException {
        AlreadyMember() {
            super(
                    HttpStatus.CONFLICT,
                    "already_member",
                    "This address belongs to a member of the organization already.");
        }
    }

    static final class MemberLimitReached extends ProblemException {
        MemberLimitReached(int limit) {
            super(
                    HttpStatus.CONFLICT,
                    "member_limit_reached",
                    "The organization has " + limit + " members and pending invitations already.");
        }
    }

    static final class InvitationEmailMismatch extends ProblemException {
        InvitationEmailMismatch() {
            super(
                    HttpStatus.FORBIDDEN,
                    "invitation_email_mismatch",
                    "This invitation was sent to another email address (or yours is not verified yet).");
        }
    }
}
