package com.kvportal.common.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The one runner of the periodic jobs: it runs every {@link PeriodicJob} bean with the timing its settings give, on a
 * named daemon thread of its own; a failed run does not end the job, and the jobs stop with the application.
 */
@Tag("spring")
class PeriodicJobsTest {

    /** A feature's settings, as a job reads its timing from them. */
    @ConfigurationProperties("test.job")
    record JobProperties(@DefaultValue("1h") Duration initialDelay, @DefaultValue("1h") Duration interval) {}

    /** A job that fails on every run, and notes each run and its thread. */
    static class FailingJob implements PeriodicJob {

        final JobProperties properties;
        final AtomicInteger runs = new AtomicInteger();
        final CountDownLatch thirdRun = new CountDownLatch(3);
        final AtomicReference<Thread> thread = new AtomicReference<>();

        FailingJob(JobProperties properties) {
            this.properties = properties;
        }

        @Override
        public Schedule schedule() {
            return new Schedule("test-job", properties.initialDelay(), properties.interval(), this::run);
        }

        private void run() {
            thread.set(Thread.currentThread());
            runs.incrementAndGet();
            thirdRun.countDown();
            throw new IllegalStateException("the database is away");
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(JobProperties.class)
    static class Jobs {

        @Bean
        FailingJob failingJob(JobProperties properties) {
            return new FailingJob(properties);
        }

        @Bean
        PeriodicJobs periodicJobs(ObjectProvider<PeriodicJob> jobs) {
            return new PeriodicJobs(jobs);
        }
    }

    private final ApplicationContextRunner context = new ApplicationContextRunner().withUserConfiguration(Jobs.class);

    @Test
    void shouldRunAJobWithTheTimingOfItsSettingsAgainAfterARunThatFailedOnANamedDaemonThread() {
        context.withPropertyValues("test.job.initial-delay=0s", "test.job.interval=10ms")
                .run(started -> {
                    FailingJob job = started.getBean(FailingJob.class);
                    PeriodicJobs runner = started.getBean(PeriodicJobs.class);
                    assertThat(job.thirdRun.await(10, TimeUnit.SECONDS))
                            .as("runs after failed ones: %s", job.runs)
                            .isTrue();
                    assertThat(runner.isRunning()).isTrue();
                    assertThat(job.thread.get().isDaemon()).isTrue();
                    assertThat(job.thread.get().getName()).isEqualTo("test-job");

                    started.close();
                    assertThat(runner.isRunning()).isFalse();
                    job.thread.get().join(10_000);
                    assertThat(job.thread.get().isAlive())
                            .as("the job's thread ends with the application")
                            .isFalse();
                });
    }

    @Test
    void shouldWaitTheInitialDelayOfItsSettingsBeforeTheFirstRun() {
        context.withPropertyValues("test.job.initial-delay=1h", "test.job.interval=10ms")
                .run(started -> {
                    FailingJob job = started.getBean(FailingJob.class);
                    assertThat(job.thirdRun.await(300, TimeUnit.MILLISECONDS)).isFalse();
                    assertThat(job.runs).hasValue(0);
                });
    }

    @Test
    void shouldRefuseAnIntervalThatIsNotPositive() {
        assertThatThrownBy(() -> new PeriodicJob.Schedule("test-job", Duration.ZERO, Duration.ZERO, () -> {}))
                .hasMessageContaining("test-job: the interval must be positive");
        assertThatThrownBy(() -> PeriodicJob.Schedule.every("test-job", Duration.ofSeconds(-1), () -> {}))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldMakeOnlyDaemonThreads() throws InterruptedException {
        assertThat(BackgroundThreads.named("one").newThread(() -> {}).isDaemon())
                .isTrue();
        Thread numbered = BackgroundThreads.numbered("pool").newThread(() -> {});
        assertThat(numbered.isDaemon()).isTrue();
        assertThat(numbered.getName()).isEqualTo("pool-1");
        Thread started = BackgroundThreads.start("started", () -> {});
        assertThat(started.isDaemon()).isTrue();
        started.join(10_000);
    }
}
