package com.kvportal.common.scheduling;

import com.kvportal.common.scheduling.PeriodicJob.Schedule;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.util.ClassUtils;

/**
 * Runs every {@link PeriodicJob} of the application, each on a daemon thread of its own named after it (a slow purge
 * never holds back a one-second refresh), from start (after the web server's) to shutdown (before the database
 * closes). A run that fails is logged with the job's logger and the next one tries again
 * ({@link ScheduledRuns#orNextRun}): an escaping failure would end the job.
 */
@Component
public class PeriodicJobs implements SmartLifecycle {

    private final ObjectProvider<PeriodicJob> jobs;
    private final List<ScheduledExecutorService> threads = new ArrayList<>();
    private volatile boolean running;

    public PeriodicJobs(ObjectProvider<PeriodicJob> jobs) {
        this.jobs = jobs;
    }

    /** A job's schedule, and the logger its failed runs are logged with. */
    private record Job(Schedule schedule, Logger log) {

        Job(PeriodicJob job) {
            this(job.schedule(), LoggerFactory.getLogger(ClassUtils.getUserClass(job)));
        }
    }

    @Override
    public synchronized void start() {
        // every schedule first: one that its settings make invalid stops the start before any job runs
        List<Job> all = jobs.orderedStream().map(Job::new).toList();
        all.forEach(this::start);
        running = true;
    }

    private void start(Job job) {
        Schedule schedule = job.schedule();
        Runnable run = () -> ScheduledRuns.orNextRun(job.log(), schedule.name(), schedule.task());
        ScheduledExecutorService thread =
                Executors.newSingleThreadScheduledExecutor(BackgroundThreads.named(schedule.name()));
        thread.scheduleWithFixedDelay(
                run, schedule.initialDelay().toMillis(), schedule.interval().toMillis(), TimeUnit.MILLISECONDS);
        threads.add(thread);
    }

    @Override
    public synchronized void stop() {
        running = false;
        threads.forEach(ScheduledExecutorService::shutdownNow);
        threads.clear();
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
