package com.kvportal.apikey.analytics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.kvportal.support.Api;
import com.kvportal.support.ServiceProcess;
import com.kvportal.support.SharedServices;
import com.kvportal.support.SignedInTest;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * Verification counts across instances: two separate service JVMs on one PostgreSQL (with this test's own instance,
 * which answers no verify and reads). Verifies of the same keys, split over both, add up exactly whichever instance is
 * read; counting costs at most one transaction per instance per 10 s; a SIGTERM loses no count, a {@code kill -9} at
 * most the instance's last 10 s. The two processes write {@code last_used_at} hourly instead of every 0.5 s, so that
 * the only writes verifies cause in the transactions test are the counts'.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class VerificationCountsClusterIT extends SignedInTest {

    /** The flush interval: the most a kill -9 may lose, and the least time between two counting transactions. */
    private static final Duration FLUSH = Duration.ofSeconds(10);

    /** What a loaded two-core machine may add to a flush's schedule and to a read after it. */
    private static final Duration SLACK = Duration.ofSeconds(3);

    /** alpha and beta, launched once for the class: the last tests stop them, and none is launched again. */
    @RegisterExtension
    static final SharedServices instances =
            new SharedServices("counts-alpha", "counts-beta").withArguments("--kvportal.api-keys.last-used-flush=1h");

    private static ServiceProcess alpha() {
        return instances.get(0);
    }

    private static ServiceProcess beta() {
        return instances.get(1);
    }

    /** A key of the test's organization: its raw value, its id, and what a verify of it sends. */
    private record Key(String name, String raw, String id, Map<String, Object> body) {}

    /** What the answers of a run said, per key name and outcome. */
    private static final class Tally {
        private final Map<String, Map<String, Long>> perKey = new LinkedHashMap<>();
        private final List<Long> answeredAt = new ArrayList<>();

        synchronized void add(String key, String outcome, long at) {
            perKey.computeIfAbsent(key, k -> zero()).merge(outcome, 1L, Long::sum);
            answeredAt.add(at);
        }

        synchronized Map<String, Long> of(String key) {
            return new LinkedHashMap<>(perKey.getOrDefault(key, zero()));
        }

        synchronized long total() {
            return answeredAt.size();
        }

        synchronized long answeredSince(long nanos) {
            return answeredAt.stream().filter(at -> at >= nanos).count();
        }
    }

    @Test
    @Order(1)
    void shouldAddUpEveryOutcomeExactlyWhenTheSameKeysAreVerifiedOnTwoInstancesReadFromEither() throws Exception {
        List<Key> keys = List.of(
                key("open", Map.of()),
                key("revoked", Map.of()),
                key("expired", Map.of()),
                key("off", Map.of("enabled", false)),
                key("fenced", Map.of("allowed_ips", List.of("203.0.113.0/24")), Map.of("client_ip", "198.51.100.7")),
                key(
                        "limited",
                        Map.of("ratelimits", List.of(Map.of("name", "day", "limit", 30, "duration_ms", 86_400_000)))),
                key("metered", Map.of("credits", Map.of("remaining", 25))));
        assertThat(session.delete("/api/v1/api-keys/" + id(keys, "revoked")).status())
                .isEqualTo(204);
        jdbc.sql("update api_keys set expires_at = now() - interval '1 second' where id = ?::uuid")
                .param(id(keys, "expired"))
                .update();

        Tally tally = new Tally();
        hammer(List.of(alpha(), beta()), keys, 3, rounds(20), tally);
        long ended = System.nanoTime();
        Map<String, Map<String, Long>> expected = new LinkedHashMap<>();
        for (Key key : keys) {
            expected.put(key.name(), tally.of(key.name()));
        }
        // each outcome was answered, on both instances together
        Map<String, Long> sum = zero();
        expected.values().forEach(counts -> counts.forEach((outcome, n) -> sum.merge(outcome, n, Long::sum)));
        assertThat(sum)
                .as("answers of the run")
                .allSatisfy((outcome, n) -> assertThat(n).as(outcome).isPositive());
        assertThat(tally.total()).isEqualTo(2L * 3 * 20 * keys.size());

        // readable within the flush interval (and the slack of a loaded machine), exactly, from either instance
        Api reader = Api.withKey(alpha().baseUrl(), session.createKey("reader", "admin"));
        await().atMost(FLUSH.plus(SLACK).plus(SLACK))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> {
                    for (Key key : keys) {
                        assertThat(totals(read(reader, key, "minute")))
                                .as(key.name())
                                .isEqualTo(expected.get(key.name()));
                    }
                });
        Duration visibleAfter = Duration.ofNanos(System.nanoTime() - ended);
        String readerKey = session.createKey("reader-beta", "admin");
        for (String base : List.of(alpha().baseUrl(), beta().baseUrl(), baseUrl())) {
            Api node = Api.withKey(base, readerKey);
            for (String granularity : List.of("minute", "hour", "day")) {
                for (Key key : keys) {
                    assertThat(totals(read(node, key, granularity)))
                            .as(
                                    "%s per %s read from %s (all visible %s after the run)",
                                    key.name(), granularity, base, visibleAfter)
                            .isEqualTo(expected.get(key.name()));
                }
                assertThat(totals(get(node, "/api/v1/verifications?granularity=" + granularity)))
                        .as("the organization per %s read from %s", granularity, base)
                        .isEqualTo(sum);
            }
        }
    }

    @Test
    @Order(2)
    void shouldCostAtMostOneTransactionPerInstancePer10sWhateverTheVerifyRate() throws Exception {
        List<Key> keys = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            keys.add(key("plain-" + i, Map.of()));
        }
        // every transaction that writes counts, as the database sees it: a statement trigger notes its id
        jdbc.sql("create table if not exists counting_transactions (txid bigint not null,"
                        + " at timestamptz not null default clock_timestamp())")
                .update();
        jdbc.sql(
                        "create or replace function note_counting_transaction() returns trigger language plpgsql as $$"
                                + " begin insert into counting_transactions (txid) values (txid_current()); return null; end $$")
                .update();
        jdbc.sql("drop trigger if exists note_counting_transaction on key_verifications_day")
                .update();
        jdbc.sql("create trigger note_counting_transaction after insert on key_verifications_day"
                        + " for each statement execute function note_counting_transaction()")
                .update();
        // every instance holds every key in memory and has flushed these counts before the measured span
        hammer(List.of(alpha(), beta()), keys, 1, rounds(1), new Tally());
        pause(FLUSH.plusSeconds(2));

        long before = commits();
        Map<String, Long> tablesBefore = tableActivity();
        long started = System.nanoTime();
        Timestamp from = single(Timestamp.class, "select clock_timestamp()");
        Tally tally = new Tally();
        AtomicInteger passes = new AtomicInteger();
        hammer(List.of(alpha(), beta()), keys, 4, () -> passes.incrementAndGet() > 2000 / keys.size(), tally);
        long burst = System.nanoTime() - started;
        // the flushes of the burst and the statistics of their backends reach pg_stat_database
        pause(FLUSH.plusSeconds(2));
        Timestamp to = single(Timestamp.class, "select clock_timestamp()");
        long afterBurst = commits();
        Map<String, Long> tablesAfterBurst = tableActivity();
        Duration window = Duration.ofNanos(System.nanoTime() - started);
        // the cluster's own background (leases, pollers) idle over spans as long, twice: its own noise
        pause(window);
        long afterIdle = commits();
        Map<String, Long> tablesAfterIdle = tableActivity();
        pause(window);
        long afterSecondIdle = commits();

        long countingTransactions = single(
                Long.class,
                "select count(distinct txid) from counting_transactions where at between ? and ?",
                from,
                to);
        long load = afterBurst - before;
        long idle = afterIdle - afterBurst;
        long noise = Math.abs((afterSecondIdle - afterIdle) - idle);
        long caused = load - idle;
        // at most one flush per instance per interval, and one more for where the window falls between two
        long flushesAllowed = 2 * (window.toMillis() / FLUSH.toMillis() + 1);
        Map<String, Long> touched = new java.util.TreeMap<>();
        tablesAfterBurst.forEach((table, n) -> {
            long more = (n - tablesBefore.getOrDefault(table, 0L)) - (tablesAfterIdle.getOrDefault(table, 0L) - n);
            if (more != 0) {
                touched.put(table, more);
            }
        });
        String figures = String.format(
                "%d verifies in %d ms; %d transactions wrote counts in %s; %d commits with the burst, %d and %d"
                        + " idle: %d caused, idle noise %d; %d flushes allowed (2 instances, one per 10 s); tables"
                        + " read or written beyond the idle span (scans and rows): %s",
                tally.total(),
                TimeUnit.NANOSECONDS.toMillis(burst),
                countingTransactions,
                window,
                load,
                idle,
                afterSecondIdle - afterIdle,
                caused,
                noise,
                flushesAllowed,
                touched);
        System.out.println("VerificationCountsClusterIT: " + figures);
        jdbc.sql("drop trigger note_counting_transaction on key_verifications_day")
                .update();
        assertThat(tally.total()).isEqualTo(2000);
        assertThat(countingTransactions).as(figures).isBetween(1L, flushesAllowed);
        // all the database work the burst caused, counting and the rest, is far from a transaction per verify
        assertThat(caused).as(figures).isLessThanOrEqualTo(tally.total() / 20 + noise);

        // and those few transactions wrote every verify of the burst
        Api reader = Api.withKey(baseUrl(), session.createKey("reader", "admin"));
        long counted =
                totals(get(reader, "/api/v1/verifications?granularity=day")).get("valid");
        assertThat(counted).isEqualTo(tally.total() + keys.size() * 2L);
    }

    @Test
    @Order(3)
    void shouldLoseNoCountWhenAnInstanceIsStoppedWithSigtermRightAfterABurst() throws Exception {
        List<Key> keys = List.of(
                key("open", Map.of()),
                key("off", Map.of("enabled", false)),
                key("fenced", Map.of("allowed_ips", List.of("203.0.113.0/24")), Map.of("client_ip", "198.51.100.7")));
        Tally tally = new Tally();
        long held = 0;
        for (int attempt = 0; attempt < 3 && held == 0; attempt++) {
            hammer(List.of(alpha()), keys, 4, rounds(40), tally);
            // what alpha holds in memory right now: answered, not yet written
            held = tally.total() - stored(keys);
        }
        assertThat(held).as("counts alpha held when stopped").isPositive();

        int exit = alpha().terminate(Duration.ofSeconds(60));

        assertThat(stored(keys))
                .as("stored after a SIGTERM (exit %d) that came with %d counts held", exit, held)
                .isEqualTo(tally.total());
        Api reader = Api.withKey(baseUrl(), session.createKey("reader", "admin"));
        for (Key key : keys) {
            assertThat(totals(read(reader, key, "minute"))).as(key.name()).isEqualTo(tally.of(key.name()));
        }
    }

    @Test
    @Order(4)
    void shouldLoseAtMostTheLast10sOfAnInstanceKilledWith9() throws Exception {
        List<Key> keys = List.of(key("open", Map.of()), key("off", Map.of("enabled", false)));
        Tally tally = new Tally();
        // long enough that some answers are older than the last flush interval (and its slack) before the kill
        hammer(List.of(beta()), keys, 2, forDuration(FLUSH.multipliedBy(2).plus(SLACK)), tally);
        long killedAt = System.nanoTime();
        beta().kill9();

        long stored = stored(keys);
        long lost = tally.total() - stored;
        long lastSeconds = tally.answeredSince(killedAt - FLUSH.plus(SLACK).toNanos());
        String figures = String.format(
                "%d answered, %d stored, %d lost; %d answered in the last %s before the kill",
                tally.total(), stored, lost, lastSeconds, FLUSH.plus(SLACK));
        System.out.println("VerificationCountsClusterIT: " + figures);
        assertThat(stored).as(figures).isPositive().isLessThanOrEqualTo(tally.total());
        assertThat(lastSeconds).as(figures).isLessThan(tally.total());
        assertThat(lost).as(figures).isLessThanOrEqualTo(lastSeconds);
        // per key and outcome too: never more than answered
        Api reader = Api.withKey(baseUrl(), session.createKey("reader", "admin"));
        for (Key key : keys) {
            Map<String, Long> read = totals(read(reader, key, "minute"));
            tally.of(key.name()).forEach((outcome, answered) -> assertThat(read.get(outcome))
                    .as("%s %s", key.name(), outcome)
                    .isLessThanOrEqualTo(answered));
        }
    }

    private Key key(String name, Map<String, Object> shape) {
        return key(name, shape, Map.of());
    }

    private Key key(String name, Map<String, Object> shape, Map<String, Object> verifyBody) {
        String raw = session.createKey(name);
        String id = session.keyId(name);
        if (!shape.isEmpty()) {
            Api.Response patched = session.patch("/api/v1/api-keys/" + id, shape);
            assertThat(patched.status()).as(patched.toString()).isEqualTo(200);
        }
        return new Key(name, raw, id, verifyBody);
    }

    private static String id(List<Key> keys, String name) {
        return keys.stream()
                .filter(k -> k.name().equals(name))
                .findFirst()
                .orElseThrow()
                .id();
    }

    /** Each thread's condition to stop: after this many passes over the keys. */
    private static java.util.function.Supplier<BooleanSupplier> rounds(int rounds) {
        return () -> {
            int[] done = {0};
            return () -> done[0]++ >= rounds;
        };
    }

    private static java.util.function.Supplier<BooleanSupplier> forDuration(Duration duration) {
        long end = System.nanoTime() + duration.toNanos();
        return () -> () -> System.nanoTime() > end;
    }

    /** As {@link #hammer(List, List, int, java.util.function.Supplier, Tally)} with one condition shared by all. */
    private static void hammer(
            List<ServiceProcess> nodes, List<Key> keys, int threads, BooleanSupplier done, Tally tally)
            throws Exception {
        hammer(nodes, keys, threads, () -> done, tally);
    }

    /**
     * Verifies every key in turn from {@code threads} threads per instance, each until its condition says so (checked
     * before each pass), and tallies each answer under the outcome it names.
     */
    private static void hammer(
            List<ServiceProcess> nodes,
            List<Key> keys,
            int threads,
            java.util.function.Supplier<BooleanSupplier> done,
            Tally tally)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(nodes.size() * threads);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (ServiceProcess node : nodes) {
                Map<Key, Api> clients = new LinkedHashMap<>();
                keys.forEach(key -> clients.put(key, Api.withKey(node.baseUrl(), key.raw())));
                for (int t = 0; t < threads; t++) {
                    BooleanSupplier stop = done.get();
                    running.add(pool.submit(() -> {
                        while (!stop.getAsBoolean()) {
                            for (Key key : keys) {
                                Api.Response answer = clients.get(key).post("/api/v1/api-keys/verify", key.body());
                                tally.add(key.name(), outcome(answer), System.nanoTime());
                            }
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
    }

    /** The outcome a verify's answer names: 200 is valid, a refusal is counted under its problem code. */
    private static String outcome(Api.Response answer) {
        if (answer.status() == 200) {
            return "valid";
        }
        String outcome =
                switch (answer.code()) {
                    case "api_key_revoked" -> "revoked";
                    case "api_key_expired" -> "expired";
                    case "api_key_disabled" -> "disabled";
                    case "ip_not_allowed", "rate_limited", "credits_exhausted" -> answer.code();
                    default -> null;
                };
        assertThat(outcome).as("a verify's answer: %s", answer).isNotNull();
        return outcome;
    }

    /** Every count of these keys written so far, read straight from the minute buckets. */
    private long stored(List<Key> keys) {
        String[] ids = keys.stream().map(Key::id).toArray(String[]::new);
        return single(
                Long.class,
                "select coalesce(sum(valid + revoked + expired + disabled + ip_not_allowed + rate_limited"
                        + " + credits_exhausted), 0) from key_verifications_minute where key_id::text = any (?)",
                (Object) ids);
    }

    /** Per table of the database: its scans and the rows it took in, changed and deleted so far. */
    private Map<String, Long> tableActivity() {
        Map<String, Long> activity = new LinkedHashMap<>();
        jdbc.sql("select relname, coalesce(seq_scan, 0) + coalesce(idx_scan, 0) + n_tup_ins + n_tup_upd + n_tup_del"
                        + " from pg_stat_user_tables")
                .query((rs, i) -> activity.put(rs.getString(1), rs.getLong(2)))
                .list();
        return activity;
    }

    private long commits() {
        return single(Long.class, "select xact_commit from pg_stat_database where datname = current_database()");
    }

    private static JsonNode read(Api reader, Key key, String granularity) {
        return get(reader, "/api/v1/api-keys/" + key.id() + "/verifications?granularity=" + granularity);
    }

    private static JsonNode get(Api reader, String path) {
        Api.Response response = reader.get(path);
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return response.json();
    }

    private static Map<String, Long> zero() {
        return VerificationCountsTest.counts(0, 0, 0);
    }

    private static Map<String, Long> totals(JsonNode read) {
        return VerificationCountsTest.totals(read);
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
