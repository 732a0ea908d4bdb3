package com.kvportal.sandbox.events;

import com.kvportal.common.AppBaseUrl;
import com.kvportal.common.PaymentProvider;
import com.kvportal.sandbox.SandboxProperties;
import com.stripe.net.Webhook;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import lombok.AccessLevel;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Posts the outbox's events to the service's endpoint for the provider's events as Stripe does: in creation order,
 * signed with {@code Stripe-Signature: t=...,v1=...}, retried with doubling waits until the endpoint answers 2xx. One worker
 * thread per instance; several instances share the outbox safely through leases on claimed rows.
 */
@Component
@RequiredArgsConstructor(access = AccessLevel.PACKAGE)
public class StripeEventDelivery implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(StripeEventDelivery.class);
    private static final int BATCH = 10;
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    /** Longer than a batch of deliveries can take, so a lease only lapses when its instance died. */
    private static final Duration LEASE = REQUEST_TIMEOUT.multipliedBy(BATCH + 2);

    private final EventOutbox outbox;
    private final PaymentProvider provider;
    private final AppBaseUrl baseUrl;
    private final SandboxProperties properties;
    private final Clock clock;
    private final HttpClient http = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
    private final Semaphore wakeUps = new Semaphore(0);
    private volatile @Nullable Thread worker;

    /** Makes the worker look for due events now instead of at its next poll. */
    void wake() {
        wakeUps.release();
    }

    /** Started after the web server (the default phase is the last), so the endpoint's port is known. */
    @Override
    public void start() {
        Thread thread = new Thread(this::run, "sandbox-events");
        thread.setDaemon(true);
        worker = thread;
        thread.start();
    }

    @Override
    public void stop() {
        Thread thread = worker;
        worker = null;
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(REQUEST_TIMEOUT.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public boolean isRunning() {
        return worker != null;
    }

    private void run() {
        while (worker == Thread.currentThread()) {
            try {
                deliverDue();
                if (wakeUps.tryAcquire(properties.pollInterval().toMillis(), TimeUnit.MILLISECONDS)) {
                    wakeUps.drainPermits();
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // the database may be briefly away: keep the worker alive and try again at the next poll
                log.warn("Sandbox event delivery failed to read the outbox: {}", e.toString());
                try {
                    Thread.sleep(properties.pollInterval().toMillis());
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    private void deliverDue() throws InterruptedException {
        List<EventOutbox.Pending> due;
        do {
            due = outbox.claimDue(BATCH, LEASE);
            for (EventOutbox.Pending event : due) {
                deliver(event);
            }
        } while (due.size() == BATCH);
    }

    private void deliver(EventOutbox.Pending event) throws InterruptedException {
        String target = baseUrl.resolve(properties.webhookPath());
        HttpRequest request = HttpRequest.newBuilder(URI.create(target))
                .timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "application/json; charset=utf-8")
                .header("User-Agent", "Stripe/1.0 (+https://stripe.com/docs/webhooks)")
                .header("Stripe-Signature", signatureHeader(event.payload()))
                .POST(HttpRequest.BodyPublishers.ofString(event.payload(), StandardCharsets.UTF_8))
                .build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 == 2) {
                outbox.delivered(event.seq(), response.statusCode());
            } else {
                retryLater(event, response.statusCode(), "HTTP " + response.statusCode() + ": " + response.body());
            }
        } catch (IOException e) {
            retryLater(event, null, e.toString());
        }
    }

    private void retryLater(EventOutbox.Pending event, @Nullable Integer status, String error) {
        int attempt = event.attempts() + 1;
        Duration wait = properties.retryAfter(attempt);
        // an endpoint that stays down would otherwise fill the log once a minute per event
        if (attempt <= 3 || attempt % 10 == 0) {
            log.info(
                    "Sandbox event {} ({}) not accepted on attempt {}: {}; next attempt in {}",
                    event.id(),
                    event.type(),
                    attempt,
                    status == null ? error : "HTTP " + status,
                    wait);
        }
        outbox.failed(event.seq(), status, error, wait);
    }

    /**
     * Stripe's scheme, through stripe-java's own signing: {@code t=<unix seconds>,v1=<hex HMAC-SHA256 of
     * "t.payload" keyed with the secret>}.
     */
    private String signatureHeader(String payload) {
        long timestamp = clock.instant().getEpochSecond();
        try {
            return "t=" + timestamp + "," + Webhook.Signature.EXPECTED_SCHEME + "="
                    + Webhook.Util.computeHmacSha256(provider.webhookSecret(), timestamp + "." + payload);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HMAC-SHA256 is unavailable", e);
        }
    }
}
