package com.kvportal.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.ServiceProcess;
import com.kvportal.support.SharedServices;
import com.kvportal.support.SignedInTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * Rate limits and credits exact across instances: this test's own instance and two separate JVMs on one PostgreSQL
 * verify one key at once. The last test kills one instance with {@code kill -9} while it holds credits.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KeyLimitsClusterIT extends SignedInTest {

    /** The second and the third instance. */
    @RegisterExtension
    static final SharedServices others = new SharedServices("limits-second", "limits-third");

    private static ServiceProcess third() {
        return others.get(1);
    }

    private String createKey(Map<String, Object> limits) {
        Map<String, Object> body = new java.util.HashMap<>(limits);
        body.put("name", "shared");
        Api.Response created = session.post("/api/v1/api-keys", body);
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return created.json().get("api_key").asString();
    }

    private List<String> bases(int instances) {
        List<String> all = new ArrayList<>(List.of(baseUrl(), others.get(0).baseUrl()));
        if (instances > 2) {
            all.add(third().baseUrl());
        }
        return all;
    }

    /** What one verify answered: its status and the body (200 or problem). */
    private record Answer(int status, JsonNode body) {}

    /** Verifies the key from {@code threadsPerInstance} threads on each instance until {@code done} says so. */
    private static List<Answer> hammer(List<String> bases, String raw, int threadsPerInstance, BooleanSupplier done)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(bases.size() * threadsPerInstance);
        List<Answer> answers = java.util.Collections.synchronizedList(new ArrayList<>());
        try {
            List<Future<?>> running = new ArrayList<>();
            for (String base : bases) {
                Api api = Api.withKey(base, raw);
                for (int t = 0; t < threadsPerInstance; t++) {
                    running.add(pool.submit(() -> {
                        while (!done.getAsBoolean()) {
                            Api.Response response = api.post("/api/v1/api-keys/verify");
                            assertThat(response.status())
                                    .as(response.toString())
                                    .isIn(200, 429);
                            answers.add(new Answer(response.status(), response.json()));
                        }
                        return null;
                    }));
                }
            }
            for (Future<?> future : running) {
                future.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        return List.copyOf(answers);
    }

    private static BooleanSupplier forDuration(Duration duration) {
        long end = System.nanoTime() + duration.toNanos();
        return () -> System.nanoTime() > end;
    }

    /**
     * From now on, notes the id of every transaction that writes a rate window (the leases of budget), as the
     * database sees it: a statement trigger, whose insert commits with the transaction it notes and adds none.
     */
    private void noteLimitTransactions() {
        jdbc.sql("create table if not exists limit_transactions (txid bigint not null,"
                        + " at timestamptz not null default clock_timestamp())")
                .update();
        jdbc.sql("create or replace function note_limit_transaction() returns trigger language plpgsql as $$"
                        + " begin insert into limit_transactions (txid) values (txid_current()); return null; end $$")
                .update();
        jdbc.sql("drop trigger if exists note_limit_transaction on api_key_rate_windows")
                .update();
        jdbc.sql("create trigger note_limit_transaction after insert or update on api_key_rate_windows"
                        + " for each statement execute function note_limit_transaction()")
                .update();
    }

    private long limitTransactions() {
        return single(Long.class, "select count(distinct txid) from limit_transactions");
    }

    private static long pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return millis;
    }

    @Test
    @Order(1)
    void shouldAcceptAtMostTheLimitPerWindowAcrossThreeInstancesAndAtLeast90PercentWhenDemandIsTwiceIt()
            throws Exception {
        long limit = 100;
        String raw =
                createKey(Map.of("ratelimits", List.of(Map.of("name", "burst", "limit", limit, "duration_ms", 4000))));

        noteLimitTransactions();
        long before = limitTransactions();
        List<Answer> answers = hammer(bases(3), raw, 3, forDuration(Duration.ofSeconds(22)));
        long caused = limitTransactions() - before;

        // each answer names its window by the window's end (reset_at), in the 200 and in the 429 alike
        Map<String, long[]> perWindow = new TreeMap<>();
        for (Answer answer : answers) {
            String window =
                    answer.body().get("ratelimits").get(0).get("reset_at").asString();
            long[] counts = perWindow.computeIfAbsent(window, w -> new long[2]);
            counts[answer.status() == 200 ? 0 : 1]++;
        }
        List<String> windows = new ArrayList<>(perWindow.keySet());
        int judged = 0;
        for (int i = 0; i < windows.size(); i++) {
            long[] counts = perWindow.get(windows.get(i));
            assertThat(counts[0])
                    .as("accepted in window ending %s of %s", windows.get(i), counts(perWindow))
                    .isLessThanOrEqualTo(limit);
            boolean whole = i > 0 && i < windows.size() - 1; // the first and last windows were hammered in part
            if (whole && counts[0] + counts[1] > 2 * limit) {
                assertThat(counts[0])
                        .as("accepted in window ending %s", windows.get(i))
                        .isGreaterThanOrEqualTo(limit * 9 / 10);
                judged++;
            }
        }
        assertThat(judged)
                .as("windows with demand over twice the limit: %s", perWindow)
                .isGreaterThanOrEqualTo(3);

        // the database transactions that the limit caused in that time, across the three instances
        System.out.printf("Rate limit: %d transactions for %d verifies%n", caused, answers.size());
        assertThat(caused).as("transactions that leased budget").isPositive();
        assertThat(caused * 1000.0 / answers.size())
                .as("%d transactions that leased budget, for %d verifies", caused, answers.size())
                .isLessThan(50);
    }

    @Test
    @Order(2)
    void shouldSpendExactlyTheCreditsGivenAcrossTwoInstances() throws Exception {
        long given = 1500;
        String raw = createKey(Map.of("credits", Map.of("remaining", given)));
        long accepted = 0;
        for (int round = 0; round < 10; round++) {
            List<Answer> answers = hammer(bases(2), raw, 3, forDuration(Duration.ofSeconds(3)));
            long acceptedNow = answers.stream().filter(a -> a.status() == 200).count();
            accepted += acceptedNow;
            assertThat(accepted).isLessThanOrEqualTo(given);
            if (acceptedNow == 0) {
                break;
            }
            pause(2500); // credits one instance set aside and did not use go back to the key
        }
        assertThat(accepted).isEqualTo(given);
        assertThat(session.keys().get(0).get("credits").get("remaining").asLong())
                .isZero();
    }

    @Test
    @Order(3)
    void shouldNeverOverSpendCreditsWhenAnInstanceHoldingSomeIsKilled() throws Exception {
        long given = 2000;
        String raw = createKey(Map.of("credits", Map.of("remaining", given)));
        AtomicLong started = new AtomicLong(System.nanoTime());
        // the third instance is killed 1.5 s into the hammering, while it holds a chunk of credits
        Thread killer = new Thread(() -> {
            pause(1500);
            third().kill9();
        });
        killer.start();
        List<Answer> answers = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<List<Answer>> survivors =
                    pool.submit(() -> hammer(bases(2), raw, 2, forDuration(Duration.ofSeconds(3))));
            Future<List<Answer>> victim = pool.submit(() -> hammerUntilDead(third().baseUrl(), raw));
            answers.addAll(survivors.get(2, TimeUnit.MINUTES));
            answers.addAll(victim.get(2, TimeUnit.MINUTES));
        } finally {
            pool.shutdownNow();
            killer.join();
        }
        long accepted = answers.stream().filter(a -> a.status() == 200).count();
        assertThat(accepted).as("accepted of %d given", given).isLessThanOrEqualTo(given);

        // the survivors' unused credits are back within 2 s; the dead instance's last chunk is counted as spent
        pause(3000);
        long remaining = session.keys().get(0).get("credits").get("remaining").asLong();
        assertThat(remaining + accepted)
                .as("remaining %d + accepted %d", remaining, accepted)
                .isLessThanOrEqualTo(given);
        assertThat(given - accepted - remaining)
                .as("lost with the killed instance")
                .isLessThanOrEqualTo(given / 5);
        // and the rest can be spent, never more than given
        List<Answer> rest = hammer(bases(2), raw, 2, forDuration(Duration.ofSeconds(3)));
        long more = rest.stream().filter(a -> a.status() == 200).count();
        assertThat(accepted + more).isLessThanOrEqualTo(given);
        assertThat(started.get()).isPositive();
    }

    /** Accepted and refused per window, for a failure's message. */
    private static Map<String, String> counts(Map<String, long[]> perWindow) {
        Map<String, String> counts = new TreeMap<>();
        perWindow.forEach((window, c) -> counts.put(window, c[0] + " accepted, " + c[1] + " refused"));
        return counts;
    }

    private static List<Answer> hammerUntilDead(String base, String raw) {
        Api api = Api.withKey(base, raw);
        List<Answer> answers = new ArrayList<>();
        Map<Integer, Integer> seen = new ConcurrentHashMap<>();
        while (true) {
            Api.Response response;
            try {
                response = api.post("/api/v1/api-keys/verify");
            } catch (RuntimeException dead) {
                return answers;
            }
            seen.merge(response.status(), 1, Integer::sum);
            answers.add(new Answer(response.status(), response.json()));
        }
    }
}
