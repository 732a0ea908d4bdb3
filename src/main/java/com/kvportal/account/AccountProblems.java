package com.kvportal.account;

import com.kvportal.common.web.ProblemException;
import java.time.Duration;

/** The ways an account operation fails, each with its {@link AccountProblem} code. */
final class AccountProblems {

    private AccountProblems() {}

    static final class EmailTaken extends ProblemException {
        EmailTaken() {
            super(AccountProblem.EMAIL_TAKEN);
        }
    }

    static final class InvalidCredentials extends ProblemException {
        InvalidCredentials() {
            super(AccountProblem.INVALID_CREDENTIALS);
            // every 401 carries a challenge (RFC 9110 15.5.2); the same one as the portal calls
            withHeader("WWW-Authenticate", "Bearer");
        }
    }

    static class TooManyAttempts extends ProblemException {
        TooManyAttempts(Duration retryAfter) {
            this(
                    retryAfter,
                    "Too many failed logins for this email address; try again in " + retryAfter.toSeconds() + " s.");
        }

        TooManyAttempts(Duration retryAfter, String detail) {
            super(AccountProblem.TOO_MANY_ATTEMPTS, detail);
            withHeader("Retry-After", Long.toString(Math.max(1, retryAfter.toSeconds())));
        }
    }

    static final class ProjectNotFound extends ProblemException {
        ProjectNotFound() {
            super(AccountProblem.PROJECT_NOT_FOUND);
        }
    }

    static final class ProjectLimitReached extends ProblemException {
        ProjectLimitReached(int limit) {
            super(AccountProblem.PROJECT_LIMIT_REACHED, "The organization already has " + limit + " projects.");
        }
    }

    static final class SessionRequired extends ProblemException {
        SessionRequired() {
            super(AccountProblem.SESSION_REQUIRED);
        }

        SessionRequired(String detail) {
            super(AccountProblem.SESSION_REQUIRED, detail);
        }
    }

    static final class SessionNotFound extends ProblemException {
        SessionNotFound() {
            super(AccountProblem.SESSION_NOT_FOUND);
        }
    }

    static final class MemberNotFound extends ProblemException {
        MemberNotFound() {
            super(AccountProblem.MEMBER_NOT_FOUND);
        }
    }

    static final class InvitationNotFound extends ProblemException {
        InvitationNotFound() {
            super(AccountProblem.INVITATION_NOT_FOUND);
        }
    }

    static final class LastOwner extends ProblemException {
        LastOwner() {
            super(AccountProblem.LAST_OWNER);
        }
    }

    static final class AlreadyMember extends ProblemException {
        AlreadyMember() {
            super(AccountProblem.ALREADY_MEMBER);
        }
    }

    static final class MemberLimitReached extends ProblemException {
        MemberLimitReached(int limit) {
            super(
                    AccountProblem.MEMBER_LIMIT_REACHED,
                    "The organization has " + limit + " members and pending invitations already.");
        }
    }

    static final class OrganizationLimitReached extends ProblemException {
        OrganizationLimitReached(int limit) {
            super(
                    AccountProblem.ORGANIZATION_LIMIT_REACHED,
                    "You own " + limit + " organizations already, the most one customer may; delete one or hand its"
                            + " ownership to another member first.");
        }
    }

    static final class InvitationEmailMismatch extends ProblemException {
        InvitationEmailMismatch() {
            super(AccountProblem.INVITATION_EMAIL_MISMATCH);
        }
    }
}
