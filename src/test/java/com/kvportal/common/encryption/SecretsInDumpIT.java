package com.kvportal.common.encryption;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.Inbox;
import com.kvportal.support.ServiceProcess;
import dev.samstevens.totp.code.DefaultCodeGenerator;
import dev.samstevens.totp.code.HashingAlgorithm;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.util.FileSystemUtils;

/**
 * A dump of the database holds no secret in clear and no link token: the service runs on a PostgreSQL server of
 * Debian's (its {@code pg_dump} cannot dump a newer server, such as the embedded one), a customer turns two-step login
 * on, makes and rolls a webhook endpoint, verifies the address, asks for a password reset, changes the address and
 * invites someone; {@code pg_dump} of the database then holds none of those secrets and tokens, but the mail sandbox's
 * own mailbox (a test mailbox, left out of the dump; with it, the dump does hold the tokens: the test can fail).
 *
 * <p>Without Debian's PostgreSQL ({@code apt-get install postgresql}) it is skipped, unless
 * {@code KVPORTAL_REQUIRE_POSTGRESQL=true} (CI), where that is a failure.
 */
class SecretsInDumpIT {

    private static final Path BIN = Path.of("/usr/lib/postgresql/15/bin");
    private static final String KEY = Base64.getEncoder().encodeToString(SecretBoxTest.key());

    private Path dir;
    private int port;
    private ServiceProcess service;

    @BeforeEach
    void startPostgres() throws IOException {
        boolean installed = Files.isExecutable(BIN.resolve("pg_dump")) && Files.isExecutable(BIN.resolve("initdb"));
        if (!"true".equalsIgnoreCase(System.getenv("KVPORTAL_REQUIRE_POSTGRESQL"))) {
            Assumptions.assumeTrue(installed, "no PostgreSQL server in " + BIN + " (apt-get install postgresql)");
        }
        assertThat(installed)
                .as("KVPORTAL_REQUIRE_POSTGRESQL=true (CI) forbids skipping: install postgresql (" + BIN + ")")
                .isTrue();
        dir = Files.createTempDirectory("kv-portal-dump");
        if (asRoot()) {
            // PostgreSQL refuses to run as root: its files belong to postgres
            UserPrincipalLookupService users = dir.getFileSystem().getUserPrincipalLookupService();
            Files.setOwner(dir, users.lookupPrincipalByName("postgres"));
        }
        port = freePort();
        run("initdb", "-D", dir.resolve("pg").toString(), "-U", "postgres", "--auth=trust", "-E", "UTF-8");
        run(
                "pg_ctl",
                "-D",
                dir.resolve("pg").toString(),
                "-l",
                dir.resolve("pg.log").toString(),
                "-w",
                "-t",
                "60",
                "-o",
                "-p " + port + " -c listen_addresses=127.0.0.1 -c unix_socket_directories=" + dir,
                "start");
        try (Connection connection = DriverManager.getConnection(
                        "jdbc:postgresql://127.0.0.1:" + port + "/postgres", "postgres", "");
                var statement = connection.createStatement()) {
            statement.execute("create database kvportal");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @AfterEach
    void stopPostgres() throws IOException {
        ServiceProcess.closeAll(service);
        if (dir != null) {
            try {
                run("pg_ctl", "-D", dir.resolve("pg").toString(), "-m", "immediate", "-w", "stop");
            } finally {
                FileSystemUtils.deleteRecursively(dir);
            }
        }
    }

    @Test
    void shouldHoldNoSecretInClearAndNoLinkToken() {
        String url = "jdbc:postgresql://127.0.0.1:" + port + "/kvportal?user=postgres";
        service = ServiceProcess.launch("secrets-dump", url, Map.of("KVPORTAL_ENCRYPTION_KEYS", KEY))
                .awaitReady();
        String base = service.baseUrl();
        List<String> secrets = new ArrayList<>();
        List<String> tokens = new ArrayList<>();

        Api session = new Api(base);
        // unverified at first, so that the test verifies with the link itself and knows its token
        String email = session.signupUnverified().email();
        Inbox inbox = new Inbox(base, email);
        String verification = Inbox.token(inbox.awaitMessage("Confirm your email address"));
        tokens.add(verification);
        assertThat(new Api(base)
                        .post("/api/v1/auth/verify-email", Map.of("token", verification))
                        .status())
                .isEqualTo(200);

        String totp = session.post("/api/v1/account/totp", Map.of("current_password", Api.PASSWORD))
                .json()
                .get("secret")
                .asString();
        secrets.add(totp);
        Api.Response confirmed = session.post(
                "/api/v1/account/totp/confirm", Map.of("code", code(totp, System.currentTimeMillis() / 30_000)));
        assertThat(confirmed.status()).as(confirmed.toString()).isEqualTo(200);

        Api.WebhookEndpoint endpoint =
                session.createWebhookEndpoint(Map.of("url", "https://hooks.example.invalid/dump"));
        secrets.add(endpoint.secret());
        // rolled: the one before keeps signing beside the new one for a while, so both are stored
        Api.Response rolled = session.post("/api/v1/webhook-endpoints/" + endpoint.id() + "/secret/rotate");
        assertThat(rolled.status()).as(rolled.toString()).isEqualTo(200);
        secrets.add(rolled.json().get("secret").asString());

        String invited = "invited-" + UUID.randomUUID() + "@example.com";
        assertThat(session.post("/api/v1/invitations", Map.of("email", invited, "role", "developer"))
                        .status())
                .isEqualTo(201);
        tokens.add(Inbox.token(new Inbox(base, invited).awaitMessage("You are invited")));

        String moved = "moved-" + UUID.randomUUID() + "@example.com";
        Api.Response change =
                session.put("/api/v1/account/email", Map.of("new_email", moved, "current_password", Api.PASSWORD));
        assertThat(change.status()).as(change.toString()).isBetween(200, 204);
        tokens.add(Inbox.token(new Inbox(base, moved).awaitMessage("Confirm your new email address")));

        assertThat(new Api(base)
                        .post("/api/v1/auth/password-reset", Map.of("email", email))
                        .status())
                .isBetween(200, 204);
        tokens.add(Inbox.token(inbox.awaitMessage("Reset your password")));

        JdbcClient jdbc = JdbcClient.create(new DriverManagerDataSource(url));
        String sandboxKey = new SecretBox(List.of(Base64.getDecoder().decode(KEY)))
                .open(
                        jdbc.sql("select key from sandbox.sandbox_api_key")
                                .query(String.class)
                                .single(),
                        SecretColumn.of("sandbox.sandbox_api_key", "key"),
                        true);
        assertThat(sandboxKey).startsWith("sk_test_");
        secrets.add(sandboxKey);
        // every message has left the outbox
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> jdbc.sql("select count(*) from mail_outbox where sent_at is null")
                                .query(Long.class)
                                .single()
                        == 0);

        String dump = pgDump("--exclude-table-data=public.mail_sandbox_messages");

        assertThat(dump).contains(email).contains("customers").contains("enc:");
        for (String secret : secrets) {
            assertThat(dump).doesNotContain(secret).doesNotContain(secret.replaceFirst("^whsec_", ""));
        }
        for (String token : tokens) {
            assertThat(dump).doesNotContain(token);
        }
        // the mail sandbox's mailbox (a test mailbox) does hold them: the dump would show a token stored in clear
        assertThat(pgDump()).contains(tokens.get(tokens.size() - 1));
    }

    private String pgDump(String... options) {
        List<String> command = new ArrayList<>(
                List.of("pg_dump", "-h", "127.0.0.1", "-p", Integer.toString(port), "-U", "postgres", "kvportal"));
        command.addAll(List.of(options));
        return run(command.toArray(String[]::new));
    }

    /** Runs a PostgreSQL tool of Debian's (as postgres when this is root) and answers its output. */
    private String run(String... command) {
        List<String> full = new ArrayList<>();
        if (asRoot()) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.add(BIN.resolve(command[0]).toString());
        full.addAll(List.of(command).subList(1, command.length));
        try {
            Path output = Files.createTempFile("kv-portal-pg", ".out");
            try {
                Process process = new ProcessBuilder(full)
                        .redirectErrorStream(true)
                        .redirectOutput(output.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                        .directory(dir.toFile())
                        .start();
                if (!process.waitFor(120, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new IllegalStateException(String.join(" ", full) + " did not finish");
                }
                String text = Files.readString(output, StandardCharsets.UTF_8);
                if (process.exitValue() != 0) {
                    throw new IllegalStateException(String.join(" ", full) + " failed: " + text);
                }
                return text;
            } finally {
                Files.deleteIfExists(output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static boolean asRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static String code(String secret, long step) {
        try {
            return new DefaultCodeGenerator(HashingAlgorithm.SHA1, 6).generate(secret, step);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
