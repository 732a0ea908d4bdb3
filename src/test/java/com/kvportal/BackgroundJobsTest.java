package com.kvportal;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMethods;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.common.scheduling.PeriodicJob;
import com.kvportal.common.scheduling.PeriodicJob.Schedule;
import com.kvportal.common.scheduling.PeriodicJobs;
import com.kvportal.support.IntegrationTest;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * Every periodic job of the service runs, with the timing of its settings: the defaults docs/operations.md gives (the
 * tests that shorten them, e.g. {@code kvportal.api-keys.expiry-scan-interval}, show that they are read).
 */
class BackgroundJobsTest extends IntegrationTest {

    @Autowired
    List<PeriodicJob> jobs;

    @Autowired
    PeriodicJobs runner;

    @Test
    void shouldRunEveryJobWithTheDefaultTimingOfItsSettings() {
        Map<String, Schedule> byName =
                jobs.stream().map(PeriodicJob::schedule).collect(Collectors.toMap(Schedule::name, Function.identity()));

        assertThat(runner.isRunning()).isTrue();
        assertTiming(byName.get("audit-retention"), Duration.ofMinutes(1), Duration.ofHours(1));
        assertTiming(byName.get("mail-retention"), Duration.ofMinutes(1), Duration.ofHours(1));
        assertTiming(byName.get("link-retention"), Duration.ofMinutes(1), Duration.ofHours(1));
        assertTiming(byName.get("webhook-retention"), Duration.ofMinutes(1), Duration.ofHours(1));
        assertTiming(byName.get("daily-reconciliation"), Duration.ofMinutes(5), Duration.ofHours(1));
        assertTiming(byName.get("key-expiry-notices"), Duration.ofSeconds(30), Duration.ofMinutes(15));
        assertTiming(byName.get("last-use-flush"), Duration.ZERO, Duration.ofMillis(500));
        assertTiming(byName.get("webhook-poll"), Duration.ofSeconds(1), Duration.ofSeconds(1));
        assertTiming(byName.get("mail-poll"), Duration.ofSeconds(2), Duration.ofSeconds(2));
        assertTiming(byName.get("usage-standing-refresh"), Duration.ofSeconds(1), Duration.ofSeconds(1));
        assertTiming(byName.get("usage-alerts"), Duration.ofSeconds(1), Duration.ofSeconds(1));
        assertTiming(byName.get("usage-charges"), Duration.ofSeconds(10), Duration.ofSeconds(10));
        assertTiming(byName.get("sandbox-draft-finalizer"), Duration.ZERO, Duration.ofMillis(250));
        assertThat(byName)
                .containsKeys(
                        "sandbox-retention",
                        "mail-sandbox-cleanup",
                        "login-throttle-cleanup",
                        "request-limits-cleanup",
                        "known-addresses-cleanup",
                        "window-limits-cleanup");
    }

    @Test
    void shouldScheduleNothingOutsideThePeriodicJobs() {
        noMethods()
                .should()
                .beAnnotatedWith(Scheduled.class)
                .because("scheduling is not enabled: a periodic job implements PeriodicJob, with its timing from its"
                        + " settings")
                .check(new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("com.kvportal"));
    }

    private static void assertTiming(Schedule schedule, Duration initialDelay, Duration interval) {
        assertThat(schedule).isNotNull();
        assertThat(schedule.initialDelay()).as(schedule.name()).isEqualTo(initialDelay);
        assertThat(schedule.interval()).as(schedule.name()).isEqualTo(interval);
    }
}
