package com.kvportal.common.encryption;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * The start refused for want of usable encryption keys: none configured with {@code DATABASE_URL}, a malformed key,
 * or secrets sealed under a key the configuration no longer holds. Its reason is one line; its action says what to do.
 */
final class EncryptionRefused extends IllegalStateException {

    static final String LOST_KEY = "If a key is lost, so are its secrets: docs/operations.md, \"A lost encryption"
            + " key\", says how to let those customers set up two-step login again and roll the webhook secrets.";

    static final String MAKE_A_KEY = "Make a key with `openssl rand -base64 32` and set it in KVPORTAL_ENCRYPTION_KEYS"
            + " (keep it outside the database, and back it up: without it the stored secrets are lost).";

    private final String reason;
    private final String action;

    EncryptionRefused(String reason, String action) {
        super(reason + " " + action);
        this.reason = reason;
        this.action = action;
    }

    /** Says why the start was refused and what to do, as Spring Boot reports a failed start, without a trace. */
    static final class Analyzer extends AbstractFailureAnalyzer<EncryptionRefused> {

        @Override
        protected FailureAnalysis analyze(Throwable rootFailure, EncryptionRefused cause) {
            return new FailureAnalysis(cause.reason, cause.action, cause);
        }
    }

    /** A secret read at start-up (the sandbox's key) that does not open: what it is and what to do. */
    static final class UnreadableAnalyzer extends AbstractFailureAnalyzer<SecretBox.UnreadableSecret> {

        @Override
        protected FailureAnalysis analyze(Throwable rootFailure, SecretBox.UnreadableSecret cause) {
            return new FailureAnalysis(cause.getMessage(), LOST_KEY, cause);
        }
    }
}
