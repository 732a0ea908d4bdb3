package com.kvportal.sandbox;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the sandbox delivers its events.
 *
 * @param webhookPath the path of this service that receives the events, like the endpoint registered at Stripe
 * @param pollInterval how often the delivery worker looks for due events when nothing woke it
 * @param firstRetry the wait after a first failed delivery; it doubles after each failure
 * @param maxRetry the longest wait between two attempts
 * @param draftGrace how long a renewal draft waits for its {@code invoice.created} to be answered 2xx before it is
 *     finalized and charged anyway (Stripe's hour); also when a standalone draft with {@code auto_advance} is
 */
@ConfigurationProperties("kvportal.sandbox")
record SandboxProperties(
        @DefaultValue("/api/v1/billing/webhook") String webhookPath,
        @DefaultValue("250ms") Duration pollInterval,
        @DefaultValue("1s") Duration firstRetry,
        @DefaultValue("60s") Duration maxRetry,
        @DefaultValue("1h") Duration draftGrace) {

    /** The wait before the next attempt after {@code failures} failed ones: 1 s, 2 s, 4 s ... capped. */
    Duration retryAfter(int failures) {
        int doublings = Math.min(Math.max(failures - 1, 0), 20);
        Duration wait = firstRetry.multipliedBy(1L << doublings);
        return wait.compareTo(maxRetry) > 0 ? maxRetry : wait;
    }
}
