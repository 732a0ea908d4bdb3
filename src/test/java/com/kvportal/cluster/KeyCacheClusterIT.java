package com.kvportal.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.kvportal.support.Api;
import com.kvportal.support.ServiceProcess;
import com.kvportal.support.SharedServices;
import com.kvportal.support.SignedInTest;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Verify answers from memory on every instance, and a narrowing change is still refused by all of them on the very
 * next request after its answer. Three instances on one PostgreSQL: this test's own, and two
 * separate JVM processes shared by the test methods; the last methods freeze one with {@code SIGSTOP} (once while the
 * log it misses is purged) and kill one with {@code kill -9}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KeyCacheClusterIT extends SignedInTest {

    /** T, the lease of every instance (the default). */
    private static final Duration LEASE = Duration.ofSeconds(3);

    /** What a loaded two-core machine may add to a request on top of T. */
    private static final Duration SLACK = Duration.ofSeconds(3);

    /** The second and the third instance. */
    @RegisterExtension
    static final SharedServices others = new SharedServices("cluster-second", "cluster-third");

    private static ServiceProcess third() {
        return others.get(1);
    }

    private String admin;

    @BeforeEach
    void anAdminKey() {
        admin = session.createKey("automation", "admin");
    }

    @Test
    @Order(1)
    void shouldAnswerAWarmVerifyFromMemoryOnEveryInstance() {
        List<Api> nodes = nodes(3);
        Trial trial = create(nodes.get(0), "read");
        for (Api node : nodes) {
            assertThat(verify(node, trial.raw).status()).isEqualTo(200);
        }
        // behind the protocol's back: no invalidation, so an instance answering from memory still sees "read"
        jdbc.sql("update api_keys set permissions = '{write}' where id = ?::uuid")
                .param(trial.id)
                .update();
        for (Api node : nodes) {
            Api.Response verified = verify(node, trial.raw);
            assertThat(verified.json().get("permissions").get(0).asString())
                    .as("answered from memory by " + node)
                    .isEqualTo("read");
        }
        assertThat(send(nodes.get(1), "DELETE", "/api/v1/api-keys/" + trial.id, admin, null)
                        .status())
                .isEqualTo(204);
        for (Api node : nodes) {
            assertThat(verify(node, trial.raw).code()).isEqualTo("api_key_revoked");
        }
    }

    /** The changes that narrow a key, each made on one instance and checked on all right after its answer. */
    enum Change {
        REVOKE,
        PERMISSIONS_TAKEN_AWAY,
        ROLL_WITH_GRACE_ZERO
    }

    @ParameterizedTest(name = "{1} on one of {0} instances")
    @CsvSource({
        "2, REVOKE",
        "2, PERMISSIONS_TAKEN_AWAY",
        "2, ROLL_WITH_GRACE_ZERO",
        "3, REVOKE",
        "3, PERMISSIONS_TAKEN_AWAY",
        "3, ROLL_WITH_GRACE_ZERO"
    })
    @Order(2)
    void shouldHoldAChangeMadeOnOneInstanceOnAllOnTheVeryNextRequestOverHundredsOfTrialsUnderLoad(
            int instances, Change change) throws Exception {
        Narrowing narrowing =
                switch (change) {
                    case REVOKE -> this::revokeAndCheck;
                    case PERMISSIONS_TAKEN_AWAY -> this::narrowAndCheck;
                    case ROLL_WITH_GRACE_ZERO -> this::rollAndCheck;
                };
        underLoad(nodes(instances), () -> trials(nodes(instances), 120, narrowing));
    }

    @Test
    @Order(2)
    void shouldRefuseAKeySwitchedOffOrFencedOnOneInstanceOnEveryInstanceOnTheVeryNextRequest() throws Exception {
        underLoad(nodes(2), () -> {
            trials(nodes(2), 40, this::disableAndCheck);
            trials(nodes(2), 40, this::fenceAndCheck);
        });
    }

    @Test
    @Order(3)
    void shouldNotLetARevokedKeyThroughWhenTheListenerConnectionsAreBroken() throws Exception {
        List<Api> nodes = nodes(3);
        AtomicLong terminated = new AtomicLong();
        underLoad(nodes, () -> {
            for (int i = 0; i < 30; i++) {
                Trial trial = create(nodes.get(i % 3), "admin");
                warm(nodes, trial);
                terminated.addAndGet(jdbc.sql(
                                """
                                select count(pg_terminate_backend(pid)) from pg_stat_activity
                                where datname = current_database()
                                  and application_name like 'kv-portal key-cache listener %'""")
                        .query(Long.class)
                        .single());
                revokeAndCheck(
                        nodes, trial, nodes.get(ThreadLocalRandom.current().nextInt(3)));
            }
        });
        assertThat(terminated.get()).as("listener connections terminated").isPositive();
    }

    @Test
    @Order(4)
    void shouldNotServeFromMemoryOnAnInstanceThatWasFrozenWhileAKeyWasRevoked() {
        List<Api> nodes = nodes(3);
        Trial trial = warmAdminKey(nodes);

        long started = System.nanoTime();
        Api.Response revoked =
                third().whileFrozen(() -> send(nodes.get(0), "DELETE", "/api/v1/api-keys/" + trial.id, admin, null));
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(revoked.status()).isEqualTo(204);
        assertThat(took).as("a frozen instance delays a revoke by at most T").isLessThan(LEASE.plus(SLACK));
        // the frozen instance runs on as if no time had passed: its lease is no longer trusted
        assertThat(verify(nodes.get(2), trial.raw).code()).isEqualTo("api_key_revoked");
        assertThat(send(nodes.get(2), "GET", "/api/v1/api-keys", trial.raw, null)
                        .status())
                .isEqualTo(401);
        assertThat(verify(nodes.get(1), trial.raw).code()).isEqualTo("api_key_revoked");
    }

    @Test
    @Order(5)
    void shouldEmptyTheCacheOfAnInstanceThatCameBackAfterTheLogItMissedWasPurged() {
        List<Api> nodes = nodes(3);
        Trial revoked = warmAdminKey(nodes);
        Trial changed = create(nodes.get(0), "read");
        assertThat(verify(nodes.get(2), changed.raw).status()).isEqualTo(200);

        Api.Response revoke = third().whileFrozen(() -> {
            Api.Response answer = send(nodes.get(0), "DELETE", "/api/v1/api-keys/" + revoked.id, admin, null);
            // behind the protocol's back: a change with no invalidation, and the log purged past what the frozen
            // instance applied (as housekeeping does once its lease is dead)
            jdbc.sql("update api_keys set permissions = '{write}' where id = ?::uuid")
                    .param(changed.id)
                    .update();
            long seq = jdbc.sql("select seq from key_invalidation_sequence")
                    .query(Long.class)
                    .single();
            jdbc.sql("delete from key_invalidations where seq <= ?").param(seq).update();
            jdbc.sql("update key_invalidation_sequence set purged_through = greatest(purged_through, ?)")
                    .param(seq)
                    .update();
            return answer;
        });
        assertThat(revoke.status()).isEqualTo(204);
        // nothing is asked of the thawed instance until it trusts its lease again, i.e. it renewed and caught up
        await().atMost(LEASE.plus(SLACK)).until(() -> Api.withKey(third().baseUrl(), METRICS_TOKEN)
                .get("/actuator/prometheus")
                .body()
                .lines()
                .anyMatch(line -> line.startsWith("kvportal_key_cache_lease_trusted") && line.endsWith(" 1.0")));

        assertThat(verify(nodes.get(2), revoked.raw).code())
                .as("a revoke whose log row was purged while the instance was frozen")
                .isEqualTo("api_key_revoked");
        assertThat(verify(nodes.get(2), changed.raw).json().get("permissions").toString())
                .as("a key read again from the database: the cache was emptied")
                .isEqualTo("[\"write\"]");
    }

    @Test
    @Order(6)
    void shouldDelayARevokeByAtMostTAndNeverLetTheKeyThroughWhenAnInstanceIsKilled() {
        List<Api> nodes = nodes(3);
        Trial trial = warmAdminKey(nodes);

        third().kill9();
        long started = System.nanoTime();
        Api.Response revoked = send(nodes.get(1), "DELETE", "/api/v1/api-keys/" + trial.id, admin, null);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(revoked.status()).isEqualTo(204);
        assertThat(took).as("a killed instance delays a revoke by at most T").isLessThan(LEASE.plus(SLACK));
        for (Api node : nodes.subList(0, 2)) {
            assertThat(verify(node, trial.raw).code()).isEqualTo("api_key_revoked");
        }
        // the survivors go on revoking without waiting for the dead one
        Trial next = warmAdminKey(nodes.subList(0, 2));
        started = System.nanoTime();
        revokeAndCheck(nodes.subList(0, 2), next, nodes.get(0));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(LEASE);
    }

    // --- trials

    private record Trial(String raw, String id) {}

    /** A change that narrows a key, made on one instance, then checked on every instance right after its answer. */
    @FunctionalInterface
    private interface Narrowing {
        void makeAndCheck(List<Api> nodes, Trial trial, Api changer);
    }

    private void trials(List<Api> nodes, int count, Narrowing narrowing) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < count; i++) {
            Trial trial = create(nodes.get(random.nextInt(nodes.size())), "admin");
            warm(nodes, trial);
            narrowing.makeAndCheck(nodes, trial, nodes.get(random.nextInt(nodes.size())));
        }
    }

    /** A new admin key, made on the first of these instances and then warm on every one of them. */
    private Trial warmAdminKey(List<Api> nodes) {
        Trial trial = create(nodes.get(0), "admin");
        warm(nodes, trial);
        return trial;
    }

    /** Verify, and use as credential, on every instance: each now has the key in memory. */
    private void warm(List<Api> nodes, Trial trial) {
        for (Api node : nodes) {
            assertThat(verify(node, trial.raw).status())
                    .as("warm verify on " + node)
                    .isEqualTo(200);
            assertThat(send(node, "GET", "/api/v1/api-keys", trial.raw, null).status())
                    .as("warm credential on " + node)
                    .isEqualTo(200);
        }
    }

    private void revokeAndCheck(List<Api> nodes, Trial trial, Api revoker) {
        assertThat(send(revoker, "DELETE", "/api/v1/api-keys/" + trial.id, admin, null)
                        .status())
                .isEqualTo(204);
        for (Api node : shuffled(nodes)) {
            Api.Response verified = verify(node, trial.raw);
            assertThat(verified.code())
                    .as("verify right after the 204, on " + node)
                    .isEqualTo("api_key_revoked");
            assertThat(send(node, "GET", "/api/v1/api-keys", trial.raw, null).status())
                    .as("credential right after the 204, on " + node)
                    .isEqualTo(401);
        }
    }

    /** The admin key loses admin: every instance verifies it with "read" only, and refuses it for portal calls. */
    private void narrowAndCheck(List<Api> nodes, Trial trial, Api changer) {
        change(changer, trial, Map.of("permissions", List.of("read")));
        for (Api node : shuffled(nodes)) {
            Api.Response verified = verify(node, trial.raw);
            assertThat(verified.status())
                    .as("verify right after the 200, on " + node)
                    .isEqualTo(200);
            assertThat(verified.json().get("permissions").toString())
                    .as("permissions right after the 200, on " + node)
                    .isEqualTo("[\"read\"]");
            assertThat(send(node, "GET", "/api/v1/api-keys", trial.raw, null).code())
                    .as("portal call right after the 200, on " + node)
                    .isEqualTo("insufficient_permissions");
        }
    }

    /** Changes the key through {@code changer}'s instance; the checks start right after its 200. */
    private void change(Api changer, Trial trial, Map<String, ?> fields) {
        Api.Response updated = send(changer, "PATCH", "/api/v1/api-keys/" + trial.id, admin, fields);
        assertThat(updated.status()).as(updated.toString()).isEqualTo(200);
    }

    /** On {@code node} right after the change: {@code verified} refused with {@code code}, and the key as a credential. */
    private void assertRefused(Api node, Trial trial, Api.Response verified, int status, String code) {
        assertThat(verified.status())
                .as("verify right after the 200, on " + node)
                .isEqualTo(status);
        assertThat(verified.code()).isEqualTo(code);
        assertThat(send(node, "GET", "/api/v1/api-keys", trial.raw, null).code())
                .as("credential right after the 200, on " + node)
                .isEqualTo(code);
    }

    /** The key switched off: every instance refuses it at verify and as a credential with api_key_disabled. */
    private void disableAndCheck(List<Api> nodes, Trial trial, Api changer) {
        change(changer, trial, Map.of("enabled", false));
        for (Api node : shuffled(nodes)) {
            assertRefused(node, trial, verify(node, trial.raw), 401, "api_key_disabled");
        }
    }

    /** The key held to 192.0.2.0/24: every instance refuses a client outside it, and the key from 127.0.0.1. */
    private void fenceAndCheck(List<Api> nodes, Trial trial, Api changer) {
        change(changer, trial, Map.of("allowed_ips", List.of("192.0.2.0/24")));
        for (Api node : shuffled(nodes)) {
            Api.Response outside =
                    send(node, "POST", "/api/v1/api-keys/verify", trial.raw, Map.of("client_ip", "198.51.100.1"));
            // the credential is sent from 127.0.0.1, outside too
            assertRefused(node, trial, outside, 403, "ip_not_allowed");
            assertThat(send(node, "POST", "/api/v1/api-keys/verify", trial.raw, Map.of("client_ip", "192.0.2.9"))
                            .status())
                    .as("a client inside, on " + node)
                    .isEqualTo(200);
        }
    }

    /** A roll with grace 0: the old key is refused everywhere, the new one accepted everywhere. */
    private void rollAndCheck(List<Api> nodes, Trial trial, Api changer) {
        Api.Response rolled =
                send(changer, "POST", "/api/v1/api-keys/" + trial.id + "/roll", admin, Map.of("grace_seconds", 0));
        assertThat(rolled.status()).as(rolled.toString()).isEqualTo(201);
        String fresh = rolled.json().get("api_key").asString();
        for (Api node : shuffled(nodes)) {
            assertThat(verify(node, trial.raw).code())
                    .as("old key right after the 201, on " + node)
                    .isEqualTo("api_key_revoked");
            assertThat(send(node, "GET", "/api/v1/api-keys", trial.raw, null).status())
                    .as("old key as credential right after the 201, on " + node)
                    .isEqualTo(401);
            assertThat(verify(node, fresh).status())
                    .as("new key right after the 201, on " + node)
                    .isEqualTo(200);
        }
    }

    private static List<Api> shuffled(List<Api> nodes) {
        List<Api> order = new ArrayList<>(nodes);
        Collections.shuffle(order);
        return order;
    }

    private Trial create(Api node, String permission) {
        Api.Response created = send(
                node,
                "POST",
                "/api/v1/api-keys",
                admin,
                Map.of("name", "trial " + UUID.randomUUID(), "permissions", List.of(permission)));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return new Trial(
                created.json().get("api_key").asString(),
                created.json().get("key").get("id").asString());
    }

    /**
     * Runs {@code work} while other keys are verified on every instance and others are created and revoked, all the
     * time; every background answer must be right too.
     */
    private void underLoad(List<Api> nodes, Runnable work) throws Exception {
        List<String> steady = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            steady.add(create(nodes.get(0), "read").raw);
        }
        AtomicBoolean stop = new AtomicBoolean();
        ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
        ExecutorService load = Executors.newFixedThreadPool(3);
        for (int t = 0; t < 2; t++) {
            load.submit(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                while (!stop.get()) {
                    Api node = nodes.get(random.nextInt(nodes.size()));
                    Api.Response verified = verify(node, steady.get(random.nextInt(steady.size())));
                    if (verified.status() != 200) {
                        wrong.add("steady key: " + verified);
                    }
                    pause(1);
                }
            });
        }
        load.submit(() -> {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            while (!stop.get()) {
                Trial churn = create(nodes.get(random.nextInt(nodes.size())), "write");
                verify(nodes.get(random.nextInt(nodes.size())), churn.raw);
                Api.Response revoked = send(
                        nodes.get(random.nextInt(nodes.size())), "DELETE", "/api/v1/api-keys/" + churn.id, admin, null);
                if (revoked.status() != 204) {
                    wrong.add("churn revoke: " + revoked);
                }
            }
        });
        try {
            work.run();
        } finally {
            stop.set(true);
            load.shutdown();
            assertThat(load.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(wrong).as("background answers").isEmpty();
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // --- HTTP

    private List<Api> nodes(int count) {
        List<Api> nodes = new ArrayList<>();
        nodes.add(new Api(baseUrl()).withoutCsrfEcho());
        nodes.add(new Api(others.get(0).baseUrl()).withoutCsrfEcho());
        nodes.add(new Api(third().baseUrl()).withoutCsrfEcho());
        return nodes.subList(0, count);
    }

    private static Api.Response verify(Api node, String raw) {
        return send(node, "POST", "/api/v1/api-keys/verify", raw, null);
    }

    private static Api.Response send(Api node, String method, String path, String key, Object body) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Authorization", "Bearer " + key);
        HttpRequest.BodyPublisher publisher = HttpRequest.BodyPublishers.noBody();
        if (body != null) {
            headers.put("Content-Type", "application/json");
            publisher = HttpRequest.BodyPublishers.ofString(Api.JSON.writeValueAsString(body));
        }
        return node.sendRaw(method, path, publisher, headers);
    }
}
