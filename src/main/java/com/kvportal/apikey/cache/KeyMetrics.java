package com.kvportal.apikey.cache;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import org.springframework.stereotype.Component;

/**
 * What verify and its cache tell Prometheus ({@code /actuator/prometheus}). Labels carry outcomes only, never a
 * customer, organization, project or key.
 *
 * <ul>
 *   <li>{@code kvportal_verify_outcomes_total{code}}: {@code ok}, {@code invalid_api_key}, {@code api_key_revoked},
 *       {@code api_key_expired};
 *   <li>{@code kvportal_verify_latency_seconds}: histogram of verify's own work (lookup and decision);
 *   <li>{@code kvportal_key_cache_answers_total{from}}: {@code memory} or {@code database};
 *   <li>{@code cache_gets_total}, {@code cache_size}, {@code cache_evictions_total} with {@code cache} =
 *       {@code api_keys} (known keys) or {@code api_keys_unknown} (the brief negative cache);
 *   <li>{@code kvportal_key_invalidation_wait_seconds{outcome}}: how long narrowing changes waited for the
 *       instances, {@code acknowledged} or {@code timed_out} (after T);
 *   <li>{@code kvportal_key_cache_leases_live}: live leases as this instance last read them;
 *       {@code kvportal_key_cache_lease_trusted}: 1 while this instance serves from memory.
 * </ul>
 */
@Component
public class KeyMetrics {

    private final Map<String, Counter> outcomes;
    private final Timer latency;
    private final Timer acknowledged;
    private final Timer timedOut;

    KeyMetrics(MeterRegistry registry, KeyCache cache, CacheCoherence coherence) {
        this.outcomes = Map.of(
                "ok", outcome(registry, "ok"),
                "invalid_api_key", outcome(registry, "invalid_api_key"),
                "api_key_revoked", outcome(registry, "api_key_revoked"),
                "api_key_expired", outcome(registry, "api_key_expired"));
        this.latency = Timer.builder("kvportal.verify.latency")
                .description("Time verify takes to decide, from the presented key to the answer")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(1_000))
                .maximumExpectedValue(Duration.ofSeconds(1))
                .register(registry);
        answers(registry, "memory", cache, KeyCache::answeredFromMemory);
        answers(registry, "database", cache, KeyCache::answeredFromDatabase);
        this.acknowledged = waits(registry, "acknowledged");
        this.timedOut = waits(registry, "timed_out");
        CaffeineCacheMetrics.monitor(registry, cache.known(), "api_keys");
        CaffeineCacheMetrics.monitor(registry, cache.unknown(), "api_keys_unknown");
        Gauge.builder("kvportal.key.cache.leases.live", coherence, CacheCoherence::liveLeases)
                .description("Instances holding a live key cache lease, as this instance last read them")
                .register(registry);
        Gauge.builder("kvportal.key.cache.lease.trusted", cache, c -> c.leaseTrusted() ? 1 : 0)
                .description("1 while this instance trusts its lease and answers verify from memory")
                .register(registry);
    }

    public void verified(String code, long startedNanos) {
        latency.record(System.nanoTime() - startedNanos, TimeUnit.NANOSECONDS);
        Counter counter = outcomes.get(code);
        if (counter != null) {
            counter.increment();
        }
    }

    void waited(long nanos, boolean acknowledgedInTime) {
        (acknowledgedInTime ? acknowledged : timedOut).record(nanos, TimeUnit.NANOSECONDS);
    }

    private static Counter outcome(MeterRegistry registry, String code) {
        return Counter.builder("kvportal.verify.outcomes")
                .description("Verify answers by outcome code")
                .tag("code", code)
                .register(registry);
    }

    private static void answers(MeterRegistry registry, String from, KeyCache cache, ToDoubleFunction<KeyCache> count) {
        FunctionCounter.builder("kvportal.key.cache.answers", cache, count)
                .description("Key lookups of verify and of keys used as credential, by where the answer came from")
                .tag("from", from)
                .register(registry);
    }

    private static Timer waits(MeterRegistry registry, String outcome) {
        return Timer.builder("kvportal.key.invalidation.wait")
                .description("Time a narrowing change waited, after its commit, for every live lease")
                .tag("outcome", outcome)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(10))
                .register(registry);
    }
}
