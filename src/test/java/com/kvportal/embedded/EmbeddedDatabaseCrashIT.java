package com.kvportal.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.kvportal.support.Api;
import com.kvportal.support.ServiceProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.postgresql.util.PSQLException;
import tools.jackson.databind.JsonNode;

/**
 * The embedded PostgreSQL as an operator meets it, with the service as a separate process: closed to anyone
 * without its generated credentials, durable across {@code kill -9} of everything, never blocked by a crashed
 * predecessor, never shared by two services, and drained cleanly on SIGTERM. The steps share one data directory
 * and run in order (each start of a service costs seconds).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EmbeddedDatabaseCrashIT {

    private static Path dataDir;
    private static ServiceProcess service;
    private static String adminKey;

    @BeforeAll
    static void startTheService() throws IOException {
        Path parent = Files.createTempDirectory("kv-portal-crash");
        dataDir = parent.resolve("postgres");
        // last_used_at is written only by the shutdown flush: the SIGTERM step sees whether it happened
        service = ServiceProcess.start(dataDir, "--kvportal.api-keys.last-used-flush=PT1H");
        Api api = new Api(service.baseUrl());
        api.signup();
        adminKey = api.createKey("automation", "admin");
    }

    @AfterAll
    static void stopEverything() {
        if (service != null) {
            Optional<ProcessHandle> postmaster = service.postmaster();
            service.close();
            postmaster.ifPresent(p -> {
                if (p.isAlive()) {
                    p.destroy();
                }
            });
        }
    }

    @Test
    @Order(1)
    void shouldRefuseAConnectionWithoutTheGeneratedCredentials() throws Exception {
        int port = postgresPort();
        for (String user : List.of("postgres", "kvportal")) {
            Properties noPassword = new Properties();
            noPassword.setProperty("user", user);
            assertThatThrownBy(() -> DriverManager.getConnection(
                                    "jdbc:postgresql://127.0.0.1:" + port + "/kvportal", noPassword)
                            .close())
                    .as("connecting as %s without a password", user)
                    .isInstanceOf(PSQLException.class)
                    .hasMessageContaining("password");
            Properties wrongPassword = new Properties();
            wrongPassword.setProperty("user", user);
            wrongPassword.setProperty("password", "postgres");
            assertThatThrownBy(() -> DriverManager.getConnection(
                                    "jdbc:postgresql://127.0.0.1:" + port + "/kvportal", wrongPassword)
                            .close())
                    .isInstanceOf(PSQLException.class)
                    .hasMessageContaining("password authentication failed");
        }
        assertThat(Files.getPosixFilePermissions(dataDir.resolve(EmbeddedServer.CREDENTIALS_FILE)))
                .isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(Files.getPosixFilePermissions(dataDir)).isEqualTo(PosixFilePermissions.fromString("rwx------"));
    }

    @Test
    @Order(2)
    void shouldConnectTheServiceAsARoleThatIsNoSuperuserOnADurableServer() throws Exception {
        try (Connection connection = appConnection();
                Statement statement = connection.createStatement()) {
            assertThat(value(statement, "show fsync")).isEqualTo("on");
            assertThat(value(statement, "show synchronous_commit")).isEqualTo("on");
            assertThat(value(statement, "show full_page_writes")).isEqualTo("on");
            // no Unix socket at all (where PostgreSQL puts one by default, any local user could reach it)
            assertThat(Path.of("/tmp/.s.PGSQL." + postgresPort())).doesNotExist();
            assertThat(Files.list(dataDir).map(p -> p.getFileName().toString()))
                    .noneMatch(name -> name.startsWith(".s.PGSQL"));
            assertThat(value(statement, "select rolsuper::text from pg_roles where rolname = current_user"))
                    .isEqualTo("false");
            assertThat(value(statement, "select pg_get_userbyid(datdba) from pg_database where datname = 'kvportal'"))
                    .isEqualTo("kvportal");
            assertThatThrownBy(() -> statement.execute("copy (select 1) to program 'id'"))
                    .isInstanceOf(PSQLException.class)
                    .satisfies(
                            e -> assertThat(((PSQLException) e).getSQLState()).isEqualTo("42501"));
            assertThatThrownBy(() -> statement.execute("select pg_read_file('/etc/passwd')"))
                    .isInstanceOf(PSQLException.class);
        }
    }

    @Test
    @Order(3)
    void shouldRefuseASecondServiceOnTheSameDataDirectoryAtOnce() {
        long begin = System.nanoTime();
        try (ServiceProcess second = ServiceProcess.launch(dataDir)) {
            int exit;
            try {
                assertThat(second.process().waitFor(90, TimeUnit.SECONDS)).isTrue();
                exit = second.process().exitValue();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            System.out.printf(
                    "A second service on the same data directory exited with %d after %d ms%n",
                    exit, Duration.ofNanos(System.nanoTime() - begin).toMillis());
            assertThat(exit).isNotZero();
            assertThat(second.output()).contains("is in use by another kv-portal process");
        }
        // the first one was not disturbed
        assertServing();
    }

    @Test
    @Order(4)
    void shouldKeepEveryAcknowledgedKeyAfterKill9OfTheServiceAndItsDatabase() throws Exception {
        Set<String> acknowledged = createKeysUntil(() -> service.kill9WithDatabase());
        assertThat(acknowledged).isNotEmpty();

        restartAfter("kill -9 of the service and its database");

        Set<String> stored = keyNames();
        Set<String> lost = new HashSet<>(acknowledged);
        lost.removeAll(stored);
        System.out.printf(
                "kill -9 during key creation: %d keys answered 201, %d of them lost%n",
                acknowledged.size(), lost.size());
        assertThat(lost).as("keys answered 201 but gone after the restart").isEmpty();
    }

    @Test
    @Order(5)
    void shouldStartAtTheFirstTryWhileTheKilledServicesDatabaseStillRuns() throws Exception {
        ProcessHandle orphan = service.postmaster().orElseThrow();
        service.kill9();
        assertThat(orphan.isAlive())
                .as("the killed service's PostgreSQL still runs")
                .isTrue();

        restartAfter("kill -9 of the service alone (orphaned PostgreSQL)");
        assertThat(orphan.isAlive()).isFalse();
        assertThat(service.output()).contains("left over from an earlier run");
        assertServing();
    }

    @Test
    @Order(6)
    void shouldFinishOrRefuseWith503TheRequestsInFlightOnSigtermAndFlushLastUse() throws Exception {
        Api admin = Api.withKey(service.baseUrl(), adminKey);
        assertThat(admin.post("/api/v1/api-keys/verify").status()).isEqualTo(200);
        Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
        AtomicBoolean exited = new AtomicBoolean();
        Set<String> acknowledged = createKeysUntil(statuses, () -> {
            int exit = service.terminate(Duration.ofSeconds(60));
            exited.set(true);
            System.out.printf("SIGTERM during key creation: the service exited with %d%n", exit);
        });
        System.out.printf("Answers during the SIGTERM burst: %s%n", statuses);
        assertThat(exited).isTrue();
        assertThat(statuses.keySet()).as("statuses answered during shutdown").isSubsetOf(201, 503);
        assertThat(service.postmaster().filter(ProcessHandle::isAlive))
                .as("the embedded PostgreSQL stopped with the service")
                .isEmpty();

        service = ServiceProcess.start(dataDir, "--kvportal.api-keys.last-used-flush=PT1H");
        JsonNode keys = Api.withKey(service.baseUrl(), adminKey).keys();
        String lastUsed = null;
        for (JsonNode key : keys) {
            if (key.get("name").asString().equals("automation")) {
                lastUsed = key.get("last_used_at").isNull()
                        ? null
                        : key.get("last_used_at").asString();
            }
        }
        assertThat(lastUsed).as("last_used_at written by the shutdown flush").isNotNull();
        assertThat(keyNames()).containsAll(acknowledged);
    }

    private Set<String> createKeysUntil(Runnable fault) throws InterruptedException {
        return createKeysUntil(new ConcurrentHashMap<>(), fault);
    }

    /** Four clients create keys as fast as they can; once some are in, the fault strikes mid-burst. */
    private Set<String> createKeysUntil(Map<Integer, Integer> statuses, Runnable fault) throws InterruptedException {
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch warm = new CountDownLatch(100);
        List<Thread> clients = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int client = t;
            Thread thread = new Thread(() -> {
                Api api = Api.withKey(service.baseUrl(), adminKey);
                for (int i = 0; i < 200 && !stop.get(); i++) {
                    String name = "burst-" + client + "-" + i + "-" + System.nanoTime();
                    try {
                        Api.Response response = api.post("/api/v1/api-keys", Map.of("name", name));
                        statuses.merge(response.status(), 1, Integer::sum);
                        if (response.status() == 201) {
                            acknowledged.add(name);
                        } else {
                            System.out.printf("Key creation answered %s%n", response);
                        }
                    } catch (UncheckedIOException | IllegalStateException e) {
                        // the service is gone or not listening any more: not an answer
                        statuses.merge(-1, 1, Integer::sum);
                        if (!service.process().isAlive()) {
                            return;
                        }
                    }
                    warm.countDown();
                }
            });
            thread.start();
            clients.add(thread);
        }
        warm.await(60, TimeUnit.SECONDS);
        fault.run();
        stop.set(true);
        for (Thread thread : clients) {
            thread.join(60_000);
        }
        statuses.remove(-1);
        return acknowledged;
    }

    /** Starts the service again on the data directory and prints how long it took. */
    private void restartAfter(String what) {
        long begin = System.nanoTime();
        service = ServiceProcess.start(dataDir, "--kvportal.api-keys.last-used-flush=PT1H");
        System.out.printf(
                "Restart after %s: ready after %d ms%n",
                what, Duration.ofNanos(System.nanoTime() - begin).toMillis());
    }

    /** The service answers the admin key's calls. */
    private void assertServing() {
        assertThat(Api.withKey(service.baseUrl(), adminKey)
                        .get("/api/v1/api-keys")
                        .status())
                .isEqualTo(200);
    }

    private Set<String> keyNames() {
        return new HashSet<>(Api.withKey(service.baseUrl(), adminKey).keyNames());
    }

    private static int postgresPort() throws IOException {
        return Integer.parseInt(
                Files.readAllLines(dataDir.resolve("postmaster.pid")).get(3).strip());
    }

    private static Connection appConnection() throws IOException, SQLException {
        String password = null;
        for (String line : Files.readAllLines(dataDir.resolve(EmbeddedServer.CREDENTIALS_FILE))) {
            String[] parts = line.split(":", 5);
            if (parts.length == 5 && parts[3].equals("kvportal")) {
                password = parts[4];
            }
        }
        Properties properties = new Properties();
        properties.setProperty("user", "kvportal");
        properties.setProperty("password", password);
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + postgresPort() + "/kvportal", properties);
    }

    private static String value(Statement statement, String sql) throws SQLException {
        try (var rs = statement.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
