package com.kvportal.common.scheduling;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs a task on a daemon thread of its own soon after being asked to, e.g. after each commit that queued work and
 * on every poll. Asks while a run is queued add nothing: that run, not yet started, sees what they asked for.
 */
public final class SoonRunner {

    private final Runnable task;
    private final ExecutorService thread;
    private final AtomicBoolean queued = new AtomicBoolean();

    public SoonRunner(String threadName, Runnable task) {
        this.task = task;
        this.thread = Executors.newSingleThreadExecutor(BackgroundThreads.named(threadName));
    }

    /** Queues a run unless one is queued already; does nothing once shut down. */
    public void soon() {
        if (queued.compareAndSet(false, true)) {
            try {
                thread.execute(() -> {
                    queued.set(false);
                    task.run();
                });
            } catch (RejectedExecutionException shuttingDown) {
                queued.set(false);
            }
        }
    }

    /** Takes no new run and waits up to {@code grace} for the current one to end. */
    public void shutdown(Duration grace) throws InterruptedException {
        thread.shutdown();
        thread.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Takes no new run and interrupts the current one. */
    public void shutdownNow() {
        thread.shutdownNow();
    }
}
