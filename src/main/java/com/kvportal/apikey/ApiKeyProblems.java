package com.kvportal.apikey;

import com.kvportal.common.web.CommonProblem;
import com.kvportal.common.web.ProblemCode;
import com.kvportal.common.web.ProblemException;
import com.kvportal.security.InsufficientRole;
import org.springframework.http.HttpStatus;

/** The ways a key operation fails, each with its {@link ApiKeyProblem} code. */
final class ApiKeyProblems {

    private ApiKeyProblems() {}

    static final class ApiKeyNotFound extends ProblemException {
        ApiKeyNotFound() {
            super(ApiKeyProblem.API_KEY_NOT_FOUND);
        }
    }

    /** 403 {@code insufficient_role}: a key with admin is made, changed or rolled by a caller who may not hold it. */
    static InsufficientRole adminNotYours() {
        return new InsufficientRole(
                "Only an owner or admin of the organization may create, change or roll a key with the admin"
                        + " permission, since a key never holds more than its creator may do. Leave admin out, or ask an"
                        + " owner or admin.");
    }

    static final class KeyRevoked extends ProblemException {
        KeyRevoked() {
            super(ApiKeyProblem.API_KEY_REVOKED, "The API key is revoked; a revoked key cannot be rolled.");
        }
    }

    /** 400 {@code key_policy_violation}: the organization's key policy refuses the key; {@code rule} says which. */
    static final class KeyPolicyViolation extends ProblemException {
        KeyPolicyViolation(String rule) {
            super(ApiKeyProblem.KEY_POLICY_VIOLATION, rule);
        }
    }

    static final class KeyLimitReached extends ProblemException {
        KeyLimitReached(int limit) {
            super(
                    ApiKeyProblem.KEY_LIMIT_REACHED,
                    "The project already has " + limit + " unrevoked keys; revoke one first.");
        }
    }

    /**
     * A presented key that may not be used: 401 from verify, with the challenge RFC 6750 prescribes for a bad token,
     * or 403 {@code ip_not_allowed} for a client outside the key's allowed addresses.
     */
    static final class KeyRefused extends ProblemException {
        private KeyRefused(ProblemCode problem) {
            super(problem);
            if (problem.status() == HttpStatus.UNAUTHORIZED) {
                withHeader("WWW-Authenticate", "Bearer error=\"invalid_token\"");
            }
        }

        static KeyRefused disabled() {
            return new KeyRefused(CommonProblem.API_KEY_DISABLED);
        }

        static KeyRefused ipNotAllowed() {
            return new KeyRefused(CommonProblem.IP_NOT_ALLOWED);
        }

        static KeyRefused invalid() {
            return new KeyRefused(ApiKeyProblem.INVALID_API_KEY);
        }

        static KeyRefused revoked() {
            return new KeyRefused(ApiKeyProblem.PRESENTED_KEY_REVOKED);
        }

        static KeyRefused expired() {
            return new KeyRefused(ApiKeyProblem.API_KEY_EXPIRED);
        }
    }
}
