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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
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

    private Map<String, Schedule> byName() {
        return jobs.stream().map(PeriodicJob::schedule).collect(Collectors.toMap(Schedule::name, Function.identity()));
    }

    @ParameterizedTest(name = "{0}: after {1}, every {2}")
    @CsvSource({
        "audit-retention, PT1M, PT1H",
        "mail-retention, PT1M, PT1H",
        "link-retention, PT1M, PT1H",
        "webhook-retention, PT1M, PT1H",
        "daily-reconciliation, PT5M, PT1H",
        "key-expiry-notices, PT30S, PT15M",
        "last-use-flush, PT0S, PT0.5S",
        "webhook-poll, PT1S, PT1S",
        "mail-poll, PT2S, PT2S",
        "usage-standing-refresh, PT1S, PT1S",
        "usage-alerts, PT1S, PT1S",
        "usage-charges, PT10S, PT10S",
        "sandbox-draft-finalizer, PT0S, PT0.25S"
    })
    void shouldRunAJobWithTheDefaultTimingOfItsSettings(String name, Duration initialDelay, Duration interval) {
        Schedule schedule = byName().get(name);
        assertThat(schedule).as(name).isNotNull();
        assertThat(schedule.initialDelay()).as(name).isEqualTo(initialDelay);
        assertThat(schedule.interval()).as(name).isEqualTo(interval);
    }

    @Test
    void shouldRunEveryJob() {
        assertThat(runner.isRunning()).isTrue();
        assertThat(byName())
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
}
