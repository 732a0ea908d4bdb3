package com.kvportal.webhooks.delivery;

import com.kvportal.common.scheduling.BackgroundThreads;
import com.kvportal.webhooks.WebhookProperties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

/**
 * The workers that make the attempts: at most {@code kvportal.webhooks.workers} at once per instance, on daemon
 * threads of their own, so that a receiver that hangs holds one of them (for at most {@code timeout}), never a request
 * thread.
 */
@Component
class DeliveryPool implements DisposableBean {

    private final Semaphore free;
    private final ExecutorService threads;

    DeliveryPool(WebhookProperties settings) {
        this.free = new Semaphore(settings.workers());
        this.threads = Executors.newFixedThreadPool(settings.workers(), BackgroundThreads.numbered("webhook-delivery"));
    }

    /** How many attempts may start now. */
    int free() {
        return free.availablePermits();
    }

    /**
     * Starts {@code attempt} on a free worker (waiting for one if none is), and runs {@code afterwards} on it once the
     * attempt ended and the worker is free again.
     *
     * @return false when the pool is shutting down: nothing was started
     */
    boolean start(Runnable attempt, Runnable afterwards) {
        free.acquireUninterruptibly();
        try {
            threads.execute(() -> {
                try {
                    attempt.run();
                } finally {
                    free.release();
                    afterwards.run();
                }
            });
            return true;
        } catch (RejectedExecutionException shuttingDown) {
            free.release();
            return false;
        }
    }

    @Override
    public void destroy() {
        threads.shutdownNow();
    }
}
