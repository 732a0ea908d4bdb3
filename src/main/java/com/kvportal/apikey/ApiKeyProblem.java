package com.kvportal.apikey;

import static com.kvportal.common.web.ProblemCode.define;

import com.kvportal.common.web.CommonProblem;
import com.kvportal.common.web.ProblemCode;
import com.kvportal.common.web.ProblemCodes;
import com.kvportal.common.web.ProblemException;
import com.kvportal.security.InsufficientRole;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import lombok.Getter;
import lombok.RequiredArgsConstructor;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

/**
 * The problem codes of API keys (see {@link ProblemCode}), and below them the exceptions that carry them.
 */
@Getter
@RequiredArgsConstructor
public enum ApiKeyProblem implements ProblemCode {
    API_KEY_EXPIRED(define(
                    HttpStatus.UNAUTHORIZED,
                    "api_key_expired",
                    "The presented API key has expired.",
                    "The API key has expired.")
            .withHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer error=\"invalid_token\"")),
    API_KEY_NOT_FOUND(define(
            HttpStatus.NOT_FOUND,
            "api_key_not_found",
            "No API key with this id in the active project (also a key of another project).",
            "No API key with this id in the active project.")),
    API_KEY_REVOKED(define(
            HttpStatus.CONFLICT,
            "api_key_revoked",
            "The key is revoked: it cannot be rolled.",
            "The API key has been revoked.")),
    PRESENTED_KEY_REVOKED(define(
                    HttpStatus.UNAUTHORIZED,
                    "api_key_revoked",
                    "The presented API key has been revoked.",
                    "The API key has been revoked.")
            .withHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer error=\"invalid_token\"")),
    INVALID_API_KEY(define(
                    HttpStatus.UNAUTHORIZED,
                    "invalid_api_key",
                    "The API key is missing, malformed or unknown.",
                    "The API key is missing, malformed or unknown.")
            .withHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer error=\"invalid_token\"")),
    KEY_POLICY_VIOLATION(define(
            HttpStatus.BAD_REQUEST,
            "key_policy_violation",
            "The organization's key policy (GET /api/v1/key-policy) refuses the key: an expiry beyond its maximum"
                    + " lifetime, or no allowed addresses where it requires them; the detail names the rule.",
            "The organization's key policy allows keys of at most 30 days: send an expires_at within 30 days, or"
                    + " leave it out.")),
    KEY_LIMIT_REACHED(define(
            HttpStatus.CONFLICT,
            "key_limit_reached",
            "The project has 1,000 unrevoked keys already.",
            "The project already has 1000 unrevoked keys; revoke one first."));

    private final Definition definition;

    /** Names the codes of this enum that an operation answers, on the method next to its {@code @ApiContract}. */
    @Retention(RetentionPolicy.RUNTIME)
    @ProblemCodes
    public @interface Codes {
        ApiKeyProblem[] value();
    }

    // the exceptions of these codes, as the service throws them

    static final class ApiKeyNotFound extends ProblemException {
        ApiKeyNotFound() {
            super(API_KEY_NOT_FOUND);
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
            super(API_KEY_REVOKED, "The API key is revoked; a revoked key cannot be rolled.");
        }
    }

    static final class KeyLimitReached extends ProblemException {
        KeyLimitReached(int limit) {
            super(KEY_LIMIT_REACHED, "The project already has " + limit + " unrevoked keys; revoke one first.");
        }
    }

    /** 401 from verify, with the challenge RFC 6750 prescribes for a bad token. */
    /** 400 {@code key_policy_violation}: the organization's key policy refuses the key; {@code rule} says which. */
    static final class KeyPolicyViolation extends ProblemException {
        KeyPolicyViolation(String rule) {
            super(KEY_POLICY_VIOLATION, rule);
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
            return new KeyRefused(INVALID_API_KEY);
        }

        static KeyRefused revoked() {
            return new KeyRefused(PRESENTED_KEY_REVOKED);
        }

        static KeyRefused expired() {
            return new KeyRefused(API_KEY_EXPIRED);
        }
    }
}
