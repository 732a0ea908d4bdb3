package com.kvportal.usage;

import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import lombok.RequiredArgsConstructor;
import lombok.extern.slf4j.Slf4j;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Evaluates, every {@code kvportal.usage.alert-interval} (1 s), the alerts of each organization whose storage, plan
 * or limits {@link StorageStanding} saw change, and at start-up those of every organization it knows, so that an
 * alert due when an instance died is raised by the next one, or by the same one restarted. Every instance does so;
 * the alert state row makes them take turns.
 */
@Slf4j
@Component
@RequiredArgsConstructor
class AlertScheduler implements SmartLifecycle {

    private final StorageStanding standing;
    private final UsageAlerts alerts;
    private final UsageProperties properties;

    private volatile boolean running;
    private ScheduledExecutorService executor;

    /** Evaluates the organizations that changed; one that fails is evaluated again on the next round. */
    void evaluateChanged() {
        Set<UUID> due = standing.drainChanged();
        for (UUID organizationId : due) {
            try {
                alerts.evaluate(organizationId);
            } catch (RuntimeException e) {
                log.warn(
                        "Evaluating the usage alerts of organization {} failed; retrying: {}",
                        organizationId,
                        e.toString());
                standing.markChanged(organizationId);
            }
        }
    }

    @Override
    public synchronized void start() {
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "usage-alerts");
            thread.setDaemon(true);
            return thread;
        });
        long interval = properties.alertInterval().toMillis();
        executor.scheduleWithFixedDelay(this::evaluateChanged, interval, interval, TimeUnit.MILLISECONDS);
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
