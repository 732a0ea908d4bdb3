package com.kvportal.apikey;

import com.kvportal.common.web.ProblemException;
import org.springframework.http.HttpStatus;

/** The ways a key operation fails, each with its stable problem code. */
final class ApiKeyProblems {

    private ApiKeyProblems() {}

    static final class ApiKeyNotFound extends ProblemException {
        ApiKeyNotFound() {
            super(HttpStatus.NOT_FOUND, "api_key_not_found", "No API key with this id in the active project.");
        }
    }

    static final class KeyRevoked extends ProblemException {
        KeyRevoked() {
            super(HttpStatus.CONFLICT, "api_key_revoked", "The API key is revoked; a revoked key cannot be rolled.");
        }
    }

    static final class KeyLimitReached extends ProblemException {
        KeyLimitReached(int limit) {
            super(
                    HttpStatus.CONFLICT,
                    "key_limit_reached",
                    "The project already has " + limit + " unrevoked keys; revoke one first.");
        }
    }

    /** 401 from verify, with the challenge RFC 6750 prescribes for a bad token. */
    static final class KeyRefused extends ProblemException {
        KeyRefused(String code, String detail) {
            super(HttpStatus.UNAUTHORIZED, code, detail);
            withHeader("WWW-Authenticate", "Bearer error=\"invalid_token\"");
        }

        static KeyRefused invalid() {
            return new KeyRefused("invalid_api_key", "The API key is missing, malformed or unknown.");
        }

        static KeyRefused revoked() {
            return new KeyRefused("api_key_revoked", "The API key has been revoked.");
        }

        static KeyRefused expired() {
            return new KeyRefused("api_key_expired", "The API key has expired.");
        }
    }
}
