package com.kvportal.cluster;

import static com.kvportal.support.StorageSamples.report;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.kvportal.support.Api;
import com.kvportal.support.Inbox;
import com.kvportal.support.IntegrationTest;
import com.kvportal.support.ServiceProcess;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.test.context.TestPropertySource;

/**
 * Usage alerts survive {@code kill -9}: separate JVM processes on one PostgreSQL, killed between the
 * sample and its alert, restarted, and racing each other for the same organization; every alert is raised once
 * (one audit line, one mail per threshold), never twice, never lost. This test's own instance evaluates no alerts (its
 * interval is an hour), so that only the processes do.
 */
@TestPropertySource(properties = "kvportal.usage.alert-interval=1h")
class UsageAlertsCrashIT extends IntegrationTest {

    static final long GIB = 1L << 30;
    static final Duration WITHIN = Duration.ofSeconds(60);

    @Value("${DATABASE_URL}")
    String databaseUrl;

    private final List<ServiceProcess> processes = new ArrayList<>();

    @AfterEach
    void stopProcesses() {
        processes.forEach(ServiceProcess::close);
    }

    ServiceProcess start(String name, String... arguments) {
        ServiceProcess process = ServiceProcess.launch(
                name, databaseUrl, Map.of("USAGE_API_TOKEN", IntegrationTest.USAGE_TOKEN), arguments);
        processes.add(process);
        return process;
    }

    List<Integer> crossed(Api owner) {
        List<Integer> crossed = new ArrayList<>();
        owner.get("/api/v1/audit-events?limit=200").json().get("events").forEach(event -> {
            if (event.get("action").asString().equals("usage.threshold_crossed")) {
                crossed.add(0, event.get("details").get("threshold_percent").asInt());
            }
        });
        return crossed;
    }

    long refusals(Api owner) {
        long[] count = {0};
        owner.get("/api/v1/audit-events?limit=200").json().get("events").forEach(event -> {
            if (event.get("action").asString().equals("usage.writes_refused")) {
                count[0]++;
            }
        });
        return count[0];
    }

    @Test
    void shouldRaiseEachAlertOnceWhenTheInstanceThatTookTheSampleIsKilledAndOthersRaceForIt() throws Exception {
        Api owner = api();
        Api.Account account = owner.signup();
        Inbox inbox = new Inbox(baseUrl(), account.email());

        // 1. the sample is accepted by an instance that evaluates no alerts, which is then killed: nobody has alerted
        ServiceProcess quiet =
                start("alerts-quiet", "--kvportal.usage.alert-interval=1h").awaitReady();
        report(quiet.baseUrl(), account.projectId(), GIB / 100 * 95, Instant.now());
        quiet.kill9();
        assertThat(crossed(owner)).isEmpty();

        // 2. two instances start together and both find the alerts due at start-up: one raises them, once
        ServiceProcess first = start("alerts-first");
        ServiceProcess second = start("alerts-second");
        first.awaitReady();
        second.awaitReady();
        await().atMost(WITHIN)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> crossed(owner).size() >= 2);
        await().atMost(Duration.ofSeconds(15)).until(() -> inbox.count("storage reached") >= 2);

        // 3. a sample to the first, killed at once (before, during or after its alert): the second raises what is
        // left, and a restart of the first finds nothing due
        report(first.baseUrl(), account.projectId(), GIB, Instant.now());
        first.kill9();
        await().atMost(WITHIN)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> crossed(owner).size() >= 3);
        start("alerts-restarted").awaitReady();
        await().atMost(Duration.ofSeconds(15)).until(() -> inbox.count("storage reached") >= 3);

        // every instance alive has evaluated the organization since (each does at start-up and each second); the
        // mail outbox has had more than its poll interval to send anything more
        Thread.sleep(5_000);
        assertThat(crossed(owner)).containsExactly(75, 90, 100);
        assertThat(refusals(owner)).isEqualTo(1);
        assertThat(inbox.count("storage reached 75 %")).isEqualTo(1);
        assertThat(inbox.count("storage reached 90 %")).isEqualTo(1);
        assertThat(inbox.count("storage reached 100 %")).isEqualTo(1);
        assertThat(inbox.count("writes are refused")).isEqualTo(1);
    }
}
