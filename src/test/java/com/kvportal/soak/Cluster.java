package com.kvportal.soak;

import com.kvportal.billing.Webhooks;
import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import com.kvportal.support.ServiceProcess;
import com.stripe.StripeClient;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Two instances of the service as separate JVMs on one PostgreSQL, each with the sandbox, the usage token and the
 * webhook secret the soak knows, and automatic tax on. The first also offers trials ({@code TRIAL_DAYS}), as during
 * a rolling change of that setting: a checkout started on it starts a trial, one on the other does not. Requests go
 * to either; one that dies with its instance ({@code kill -9}) is sent again to the other, as a load balancer's
 * client retries (every request the soak retries is safe to repeat); an instance started in a killed one's place has
 * its settings.
 */
final class Cluster implements AutoCloseable {

    /** The sandbox's own key: its Stripe API and test clock take only this one. */
    static final String SANDBOX_KEY = "sk_test_" + "S0akEveryCentMoney2026xq";

    /** The days of trial the first instance offers. */
    static final int TRIAL_DAYS = 14;

    private final String databaseUrl;
    private final List<ServiceProcess> live = new ArrayList<>();
    /** The instances (by base) that offer trials. */
    private final java.util.Set<String> trials = ConcurrentHashMap.newKeySet();

    private final Map<String, Api> usageClients = new ConcurrentHashMap<>();
    private final Map<String, Api> sandboxClients = new ConcurrentHashMap<>();
    private final Map<String, StripeClient> stripeClients = new ConcurrentHashMap<>();
    private final AtomicInteger retried = new AtomicInteger();
    private int started;

    Cluster(String databaseUrl) {
        this.databaseUrl = databaseUrl;
    }

    /** Starts two instances and waits until both are ready. */
    void start() {
        ServiceProcess a = launch(true);
        ServiceProcess b = launch(false);
        a.awaitReady();
        b.awaitReady();
        synchronized (live) {
            live.add(a);
            live.add(b);
        }
    }

    /** Launches one more instance, offering trials or not (not yet ready, not yet taking requests). */
    ServiceProcess launch(boolean offersTrials) {
        started++;
        if (SANDBOX_KEY.length() != "sk_test_".length() + 24) {
            throw new IllegalStateException("the sandbox key is sk_test_ and 24 base62 characters");
        }
        Map<String, String> environment = new java.util.HashMap<>(Map.of(
                "SANDBOX_API_KEY", SANDBOX_KEY,
                "PAYMENT_WEBHOOK_SECRET", IntegrationTest.WEBHOOK_SECRET,
                "USAGE_API_TOKEN", IntegrationTest.USAGE_TOKEN,
                "METRICS_TOKEN", IntegrationTest.METRICS_TOKEN,
                "STRIPE_AUTOMATIC_TAX", "on"));
        if (offersTrials) {
            environment.put("TRIAL_DAYS", Integer.toString(TRIAL_DAYS));
        }
        ServiceProcess instance = ServiceProcess.launch("soak-" + started, databaseUrl, environment);
        if (offersTrials) {
            trials.add(instance.baseUrl());
        }
        return instance;
    }

    /** Launches an instance with the settings of the one that was at {@code base}. */
    ServiceProcess launchLike(String base) {
        return launch(trials.contains(base));
    }

    /** A live instance that offers trials (when {@code trial}) or one that does not. */
    String offering(boolean trial) {
        return bases().stream()
                .filter(b -> trials.contains(b) == trial)
                .findFirst()
                .orElseThrow(() ->
                        new IllegalStateException("no live instance " + (trial ? "with" : "without") + " trials"));
    }

    /** Takes a ready instance into the rotation. */
    void join(ServiceProcess instance) {
        synchronized (live) {
            live.add(instance);
        }
    }

    /** {@code kill -9} of the instance at that base; requests in flight to it fail. */
    ServiceProcess kill(String base) {
        ServiceProcess victim;
        synchronized (live) {
            victim = live.stream()
                    .filter(i -> i.baseUrl().equals(base))
                    .findFirst()
                    .orElseThrow();
        }
        victim.kill9();
        synchronized (live) {
            live.remove(victim);
        }
        return victim;
    }

    List<String> bases() {
        synchronized (live) {
            return live.stream().map(ServiceProcess::baseUrl).toList();
        }
    }

    String pick(Random random) {
        List<String> bases = bases();
        return bases.get(random.nextInt(bases.size()));
    }

    /**
     * Runs the call on an instance picked at random; if the connection breaks (its instance was killed), runs it
     * again on another. Answers the base that answered and its answer.
     */
    <T> Answered<T> onAny(Random random, Function<String, T> call) {
        return onAny(random, null, call);
    }

    /** As {@link #onAny(Random, Function)}, trying the instance at {@code first} first (when not null). */
    <T> Answered<T> onAny(Random random, @Nullable String first, Function<String, T> call) {
        UncheckedIOException last = null;
        for (int attempt = 0; attempt < 20; attempt++) {
            String base = attempt == 0 && first != null ? first : pick(random);
            try {
                return new Answered<>(base, call.apply(base), attempt > 0);
            } catch (UncheckedIOException broken) {
                last = broken;
                retried.incrementAndGet();
                pause(250);
            }
        }
        throw new IllegalStateException("no instance answered", last);
    }

    /** How many requests were sent again because their instance died under them. */
    int retried() {
        return retried.get();
    }

    record Answered<T>(String base, T answer, boolean retried) {}

    /** The storage backend's client on that instance. */
    Api usage(String base) {
        return usageClients.computeIfAbsent(base, b -> Api.withKey(b, IntegrationTest.USAGE_TOKEN));
    }

    /** A client of the sandbox's own surface (advance, card) on that instance, with the sandbox's key. */
    Api sandbox(String base) {
        return sandboxClients.computeIfAbsent(base, b -> Api.withKey(b, SANDBOX_KEY));
    }

    /** stripe-java against the sandbox of that instance. */
    StripeClient stripe(String base) {
        return stripeClients.computeIfAbsent(base, b -> StripeClient.builder()
                .setApiKey(SANDBOX_KEY)
                .setApiBase(b + "/sandbox/stripe")
                .build());
    }

    Webhooks webhook(String base) {
        return new Webhooks(base);
    }

    @Override
    public void close() {
        synchronized (live) {
            live.forEach(ServiceProcess::close);
            live.clear();
        }
    }

    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
