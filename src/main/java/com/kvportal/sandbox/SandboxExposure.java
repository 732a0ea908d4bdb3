package com.kvportal.sandbox;

import com.kvportal.common.AppBaseUrl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Where the sandbox may run (CONTRACT 7.1), checked at start-up: where {@code APP_BASE_URL} is a loopback address,
 * or anywhere with {@code SANDBOX=on} (with a warning, since anyone who reaches the service may then subscribe
 * without paying). Anywhere else the service does not start.
 */
@Component
@SandboxMode
class SandboxExposure {

    private static final Logger log = LoggerFactory.getLogger(SandboxExposure.class);

    SandboxExposure(SandboxProperties properties, AppBaseUrl baseUrl) {
        if (baseUrl.isLoopback()) {
            return;
        }
        if (!properties.forcedOn()) {
            throw new IllegalStateException("STRIPE_SECRET_KEY is not set, so payments would go to the built-in "
                    + "sandbox, but APP_BASE_URL (" + baseUrl.get() + ") is not a loopback address: there anyone "
                    + "could subscribe without paying. Set STRIPE_SECRET_KEY (with STRIPE_PRICE_PRO and "
                    + "PAYMENT_WEBHOOK_SECRET) to take payments with Stripe, or set SANDBOX=on to run the sandbox "
                    + "there anyway (a demo or test environment).");
        }
        log.warn(
                "SANDBOX=on: the payment sandbox runs at {}, which is not a loopback address. Payments are "
                        + "simulated and anyone who can reach the service may pay with the sandbox and get a paid plan. "
                        + "Set STRIPE_SECRET_KEY to take real payments.",
                baseUrl.get());
    }
}
