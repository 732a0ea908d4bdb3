package com.kvportal.sandbox;

import java.time.Duration;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where the sandbox may run, its key, and how it delivers its events.
 *
 * @param mode {@code SANDBOX}: {@code on} runs the sandbox although the base URL is not a loopback address; empty
 *     runs it only on a loopback base URL
 * @param apiKey {@code SANDBOX_API_KEY}: the only key its Stripe API and test clock take; empty for the key
 *     generated at the first start and kept in the database
 * @param webhookPath the path of this service that receives the events, like the endpoint registered at Stripe
 * @param pollInterval how often the delivery worker looks for due events when nothing woke it
 * @param firstRetry the wait after a first failed delivery; it doubles after each failure
 * @param maxRetry the longest wait between two attempts
 * @param draftGrace how long a renewal draft waits for its {@code invoice.created} to be answered 2xx before it is
 *     finalized and charged anyway (Stripe's hour); also when a standalone draft with {@code auto_advance} is
 */
public record SandboxProperties(
        @DefaultValue("") String mode,
        @DefaultValue("") String apiKey,
        @DefaultValue("/api/v1/billing/webhook") String webhookPath,
        @DefaultValue("250ms") Duration pollInterval,
        @DefaultValue("1s") Duration firstRetry,
        @DefaultValue("60s") Duration maxRetry,
        @DefaultValue("1h") Duration draftGrace) {

    /** Where its settings are ({@code application.yml}); bound by {@link SandboxWing} only while the sandbox is on. */
    static final String PREFIX = "kvportal.sandbox";

    /** A key of one's own: Stripe's test-mode prefix and enough characters not to be guessed. */
    private static final Pattern API_KEY = Pattern.compile("sk_test_[0-9A-Za-z_]{16,200}");

    public SandboxProperties {
        if (!mode.isBlank() && !mode.strip().equalsIgnoreCase("on")) {
            throw new IllegalStateException("SANDBOX is '" + mode + "': set it to on (to run the payment sandbox "
                    + "where APP_BASE_URL is not a loopback address) or leave it unset.");
        }
        if (!apiKey.isBlank() && !API_KEY.matcher(apiKey.strip()).matches()) {
            throw new IllegalStateException("SANDBOX_API_KEY must be sk_test_ followed by at least 16 letters, "
                    + "digits or underscores; or leave it unset for a key generated at the first start.");
        }
    }

    /** {@code SANDBOX=on}: the sandbox runs whatever the base URL. */
    boolean forcedOn() {
        return !mode.isBlank();
    }

    /** The wait before the next attempt after {@code failures} failed ones: 1 s, 2 s, 4 s ... capped. */
    public Duration retryAfter(int failures) {
        int doublings = Math.min(Math.max(failures - 1, 0), 20);
        Duration wait = firstRetry.multipliedBy(1L << doublings);
        return wait.compareTo(maxRetry) > 0 ? maxRetry : wait;
    }
}
