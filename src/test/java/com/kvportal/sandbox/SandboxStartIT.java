package com.kvportal.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.ServiceProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Where the sandbox runs, with the service as a separate process: a public base URL without Stripe
 * and without {@code SANDBOX=on} is refused at start-up; {@code SANDBOX=on} starts with a warning; the generated
 * {@code SANDBOX_API_KEY} is kept with the data, so a restart keeps it.
 */
class SandboxStartIT {

    private static final String PUBLIC_BASE_URL = "--APP_BASE_URL=https://portal.example.com";

    private static final Pattern KEY = Pattern.compile("sk_test_[0-9A-Za-z]{24}\\b");

    @Test
    void shouldRefuseToStartWithAPublicBaseUrlWithoutStripeOrSandboxOn() throws IOException {
        Path dataDir = Files.createTempDirectory("kv-portal-sandbox-refused").resolve("postgres");
        try (ServiceProcess service = ServiceProcess.launch(dataDir, PUBLIC_BASE_URL)) {
            int exit = service.awaitExit(Duration.ofSeconds(150));

            assertThat(exit).as(service.output()).isNotZero();
            assertThat(service.output())
                    .contains("APPLICATION FAILED TO START")
                    .contains("https://portal.example.com")
                    .contains("STRIPE_SECRET_KEY")
                    .contains("SANDBOX=on");
        } finally {
            stopDatabase(dataDir);
        }
    }

    @Test
    void shouldStartWithSandboxOnWarnAndKeepTheGeneratedKeyAcrossARestart() throws IOException {
        Path dataDir = Files.createTempDirectory("kv-portal-sandbox-on").resolve("postgres");
        try {
            String first;
            try (ServiceProcess service = ServiceProcess.start(dataDir, PUBLIC_BASE_URL, "--SANDBOX=on")) {
                assertThat(service.output())
                        .contains("WARN")
                        .contains("SANDBOX=on")
                        .contains("payments are simulated")
                        .contains("anyone");
                first = key(service);
                assertThat(eventsStatus(service, first)).isEqualTo(200);
                assertThat(eventsStatus(service, "sk_test_" + "x".repeat(24))).isEqualTo(401);
                service.terminate(Duration.ofSeconds(60));
            }
            try (ServiceProcess again = ServiceProcess.start(dataDir, PUBLIC_BASE_URL, "--SANDBOX=on")) {
                assertThat(key(again)).isEqualTo(first);
                assertThat(eventsStatus(again, first)).isEqualTo(200);
                again.terminate(Duration.ofSeconds(60));
            }
        } finally {
            stopDatabase(dataDir);
        }
    }

    /** The generated key, as the start-up log prints it. */
    private static String key(ServiceProcess service) {
        Matcher matcher = KEY.matcher(service.output());
        assertThat(matcher.find()).as(service.output()).isTrue();
        return matcher.group();
    }

    private static int eventsStatus(ServiceProcess service, String key) {
        return Api.withKey(service.baseUrl(), key)
                .get("/sandbox/stripe/v1/events")
                .status();
    }

    /** A refused or killed start may leave its embedded PostgreSQL behind. */
    private static void stopDatabase(Path dataDir) {
        Path pidFile = dataDir.resolve("postmaster.pid");
        try {
            if (Files.exists(pidFile)) {
                Optional<ProcessHandle> postmaster = ProcessHandle.of(
                        Long.parseLong(Files.readAllLines(pidFile).get(0).strip()));
                postmaster.ifPresent(ProcessHandle::destroy);
            }
        } catch (IOException | RuntimeException e) {
            // nothing left to stop
        }
    }
}
