package com.kvportal.common.encryption;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * The start refused for want of usable encryption keys: none configured with {@code DATABASE_URL}, a malformed key,
 * or secrets sealed under a key the configuration no longer holds. Its reason is one line; its action says what to do.
 */
final class EncryptionRefused extends IllegalStateException {

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
}
