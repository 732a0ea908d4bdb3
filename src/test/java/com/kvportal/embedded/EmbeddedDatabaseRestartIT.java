package com.kvportal.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.KvPortalApplication;
import com.kvportal.support.Api;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Without {@code DATABASE_URL} the service runs on its own embedded PostgreSQL, and what it stored is there
 * again after a restart on the same data directory.
 */
class EmbeddedDatabaseRestartIT {

    private static final String PASSWORD = "correct horse battery";

    private record Started(ConfigurableApplicationContext context, int port, Duration startup)
            implements AutoCloseable {
        String baseUrl() {
            return "http://127.0.0.1:" + port;
        }

        @Override
        public void close() {
            context.close();
        }
    }

    /** Starts the whole service, measured until its port accepts connections. */
    private static Started start(Path dataDir) throws IOException {
        long begin = System.nanoTime();
        ConfigurableApplicationContext context = new SpringApplicationBuilder(KvPortalApplication.class)
                .run(
                        // command-line arguments win over an environment variable of the machine
                        "--DATABASE_URL=",
                        "--kvportal.database.embedded-data-dir=" + dataDir,
                        "--kvportal.database.pool-size=3",
                        "--server.port=0",
                        "--server.address=127.0.0.1");
        int port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
        try (Socket socket = new Socket("127.0.0.1", port)) {
            assertThat(socket.isConnected()).isTrue();
        }
        return new Started(context, port, Duration.ofNanos(System.nanoTime() - begin));
    }

    @Test
    void shouldKeepAccountsAndSessionsAcrossARestart(@TempDir Path dataDir) throws IOException {
        String email;
        String sessionCookie;
        try (Started first = start(dataDir)) {
            System.out.printf(
                    "Start-up to a listening port, empty data directory (initdb + migrations): %d ms%n",
                    first.startup().toMillis());
            Api api = new Api(first.baseUrl());
            email = api.signup().email();
            sessionCookie = api.cookie("SESSION");
        }
        assertThat(Files.list(dataDir).findAny())
                .as("PostgreSQL files in " + dataDir)
                .isPresent();

        try (Started second = start(dataDir)) {
            System.out.printf(
                    "Start-up to a listening port, existing data directory: %d ms (the issue asks < 20 s)%n",
                    second.startup().toMillis());
            Api api = new Api(second.baseUrl());

            Api.Response login = api.post("/api/v1/auth/login", Map.of("email", email, "password", PASSWORD));
            assertThat(login.status()).as(login.toString()).isEqualTo(200);

            Api old = new Api(second.baseUrl());
            old.setCookie("SESSION", sessionCookie);
            assertThat(old.get("/api/v1/session").status()).isEqualTo(200);
        }
    }
}
