package com.kvportal.sandbox;

import com.kvportal.common.AppBaseUrl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.stereotype.Component;

/**
 * Where the sandbox may run, checked at start-up: where {@code APP_BASE_URL} is a loopback address,
 * or anywhere with {@code SANDBOX=on} (with a warning, since anyone who reaches the service may then subscribe
 * without paying). Anywhere else the service does not start.
 */
@Component
class SandboxExposure {

    private static final Logger log = LoggerFactory.getLogger(SandboxExposure.class);

    SandboxExposure(SandboxProperties properties, AppBaseUrl baseUrl) {
        if (baseUrl.isLoopback()) {
            return;
        }
        if (!properties.forcedOn()) {
            throw Refused.at(baseUrl.get());
        }
        log.warn(
                "SANDBOX=on: the payment sandbox runs at {}, which is not a loopback address: payments are "
                        + "simulated and anyone may pay, so anyone who reaches the service gets a paid plan for nothing. "
                        + "Set STRIPE_SECRET_KEY to take real payments.",
                baseUrl.get());
    }

    /** The start refused: a public base URL without Stripe and without {@code SANDBOX=on}. */
    static final class Refused extends IllegalStateException {

        static final String ACTION = "Set STRIPE_SECRET_KEY (with STRIPE_PRICE_PRO and PAYMENT_WEBHOOK_SECRET) to take "
                + "payments with Stripe, or set SANDBOX=on to run the sandbox there anyway (a demo or test "
                + "environment), or set APP_BASE_URL to a loopback address (http://localhost:8080).";

        private final String reason;

        private Refused(String reason) {
            super(reason + " " + ACTION);
            this.reason = reason;
        }

        static Refused at(String baseUrl) {
            return new Refused("STRIPE_SECRET_KEY is not set, so payments would go to the built-in sandbox, but "
                    + "APP_BASE_URL (" + baseUrl + ") is not a loopback address: there anyone could subscribe without "
                    + "paying.");
        }
    }

    /** Says why the start was refused and what to set, as Spring Boot reports a failed start, without a trace. */
    static final class RefusedAnalyzer extends AbstractFailureAnalyzer<Refused> {

        @Override
        protected FailureAnalysis analyze(Throwable rootFailure, Refused cause) {
            return new FailureAnalysis(cause.reason, Refused.ACTION, cause);
        }
    }
}
