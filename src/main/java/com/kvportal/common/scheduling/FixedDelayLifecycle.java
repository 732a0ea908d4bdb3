package com.kvportal.common.scheduling;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * A bean that runs a task on a daemon thread of its own, from start to stop, every interval after the previous run
 * ended. A run that fails is logged and the next one tries again (an escaping failure would end the loop).
 */
public abstract class FixedDelayLifecycle implements SmartLifecycle {

    /** The task, the name of its thread, and the wait after a run (and before the first). */
    public record Schedule(String threadName, Duration interval, Runnable task) {}

    private volatile boolean running;
    private @Nullable ScheduledExecutorService executor;

    /** Asked once, at start. */
    protected abstract Schedule schedule();

    @Override
    public synchronized void start() {
        Schedule schedule = schedule();
        Logger log = LoggerFactory.getLogger(getClass());
        Runnable run = () -> ScheduledRuns.orNextRun(log, schedule.threadName(), schedule.task());
        long interval = schedule.interval().toMillis();
        executor = Executors.newSingleThreadScheduledExecutor(BackgroundThreads.named(schedule.threadName()));
        executor.scheduleWithFixedDelay(run, interval, interval, TimeUnit.MILLISECONDS);
        running = true;
    }

    @Override
    public synchronized void stop() {
        running = false;
        if (executor != null) {
            executor.shutdownNow();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
