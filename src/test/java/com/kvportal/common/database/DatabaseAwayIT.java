package com.kvportal.common.database;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.KvPortalApplication;
import com.kvportal.support.Api;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * An external PostgreSQL ({@code DATABASE_URL}) stopped under load and started again: requests that need it answer
 * 503 {@code database_unavailable} with {@code Retry-After} within about two seconds (never a hang, never a 500),
 * readiness says DOWN as fast, a key refused by its checksum still answers 401, and the service recovers the moment
 * the database is back.
 */
class DatabaseAwayIT {

    private static Path dataDir;
    private static int port;
    private static EmbeddedPostgres postgres;
    private static ConfigurableApplicationContext service;
    private static String base;

    @BeforeAll
    static void start() throws IOException {
        dataDir = Files.createTempDirectory("kv-portal-away");
        postgres = startPostgres(0);
        port = postgres.getPort();
        service = new SpringApplicationBuilder(KvPortalApplication.class)
                .run(
                        "--server.port=0",
                        "--server.address=127.0.0.1",
                        "--DATABASE_URL=" + postgres.getJdbcUrl("postgres", "postgres"),
                        "--kvportal.database.pool-size=4");
        base = "http://127.0.0.1:"
                + ((WebServerApplicationContext) service).getWebServer().getPort();
    }

    @AfterAll
    static void stop() throws IOException {
        if (service != null) {
            service.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    private static EmbeddedPostgres startPostgres(int fixedPort) throws IOException {
        return EmbeddedPostgres.builder()
                .setDataDirectory(dataDir)
                .setCleanDataDirectory(false)
                .setPort(fixedPort)
                .start();
    }

    @Test
    void shouldAnswer503FastWhileThePostgresqlIsStoppedAndRecoverWhenItIsBack() throws Exception {
        Api owner = new Api(base);
        owner.signup();
        String key = owner.createKey("reader", "admin");

        Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
        AtomicLong slowest = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        List<String> badAnswers = new ArrayList<>();
        List<Thread> load = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            Thread thread = new Thread(() -> {
                Api api = Api.withKey(base, key);
                while (!stop.get()) {
                    long begin = System.nanoTime();
                    Api.Response response = api.get("/api/v1/api-keys");
                    slowest.accumulateAndGet(System.nanoTime() - begin, Math::max);
                    statuses.merge(response.status(), 1, Integer::sum);
                    if (response.status() == 503
                            && (!"database_unavailable".equals(response.code())
                                    || response.header("Retry-After") == null)) {
                        synchronized (badAnswers) {
                            badAnswers.add(response.toString());
                        }
                    }
                }
            });
            thread.start();
            load.add(thread);
        }
        Thread.sleep(500);

        postgres.close();
        long stopped = System.nanoTime();

        // a request that needs the database: 503 within about 2 s
        Api.Response away = Api.withKey(base, key).get("/api/v1/api-keys");
        long firstAnswer = elapsedMillis(stopped);
        assertThat(away.status()).as(away.toString()).isEqualTo(503);
        assertThat(away.code()).isEqualTo("database_unavailable");
        assertThat(away.header("Retry-After")).isNotNull();
        assertThat(away.header("Content-Type")).startsWith("application/problem+json");

        // a signed-in browser (the JDBC session store) and a new signup: 503 too
        assertThat(owner.get("/api/v1/session").status()).isEqualTo(503);
        Api.Response signup = new Api(base)
                .post(
                        "/api/v1/auth/signup",
                        Map.of(
                                "email",
                                "away-" + System.nanoTime() + "@example.com",
                                "password",
                                "correct horse battery"));
        assertThat(signup.status()).as(signup.toString()).isEqualTo(503);

        // readiness: DOWN as fast
        long readinessBegin = System.nanoTime();
        Api.Response readiness = new Api(base).get("/actuator/health/readiness");
        long readinessMillis = elapsedMillis(readinessBegin);
        assertThat(readiness.status()).isEqualTo(503);

        // a key refused by its checksum needs no database
        Api.Response badChecksum =
                Api.withKey(base, "kv_AAAAAAAAAAAAAAAAAAAAAAAAAA36zwQ8").post("/api/v1/api-keys/verify");
        assertThat(badChecksum.status()).isEqualTo(401);
        assertThat(badChecksum.code()).isEqualTo("invalid_api_key");

        Thread.sleep(1000);
        postgres = startPostgres(port);
        long restarted = System.nanoTime();
        long recovered = -1;
        while (elapsedMillis(restarted) < 15_000) {
            if (Api.withKey(base, key).get("/api/v1/api-keys").status() == 200) {
                recovered = elapsedMillis(restarted);
                break;
            }
            Thread.sleep(50);
        }
        Thread.sleep(500);
        stop.set(true);
        for (Thread thread : load) {
            thread.join(30_000);
        }
        System.out.printf(
                "PostgreSQL stopped under load: first answer %d ms (503), readiness DOWN in %d ms, slowest request"
                        + " %d ms, back to 200 %d ms after the restart; answers %s%n",
                firstAnswer, readinessMillis, Duration.ofNanos(slowest.get()).toMillis(), recovered, statuses);
        assertThat(firstAnswer).isLessThan(4_000);
        assertThat(readinessMillis).isLessThan(4_000);
        assertThat(Duration.ofNanos(slowest.get()).toMillis()).isLessThan(5_000);
        assertThat(recovered)
                .as("recovered after the restart (Hikari retries with a back-off of at most 5 s)")
                .isBetween(0L, 8_000L);
        assertThat(statuses.keySet()).isSubsetOf(200, 503);
        assertThat(badAnswers).isEmpty();
        assertThat(new Api(base).get("/actuator/health/readiness").status()).isEqualTo(200);
    }

    private static long elapsedMillis(long since) {
        return Duration.ofNanos(System.nanoTime() - since).toMillis();
    }
}
