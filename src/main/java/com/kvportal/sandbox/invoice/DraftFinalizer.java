package com.kvportal.sandbox.invoice;

import com.kvportal.sandbox.SandboxProperties;
import com.kvportal.sandbox.store.SandboxObjects;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.stereotype.Component;

/**
 * Finalizes and charges the drafts that advance by themselves once they are due, as Stripe does: a renewal as soon
 * as its {@code invoice.created} was answered 2xx, any such draft once its grace has passed. Looks every poll
 * interval; several instances may run it (each draft is finalized under its row lock, once).
 */
@Component
@RequiredArgsConstructor
public class DraftFinalizer implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(DraftFinalizer.class);
    private static final int BATCH = 20;

    private final SandboxObjects objects;
    private final StripeInvoices invoices;
    private final TaskScheduler scheduler;
    private final SandboxProperties properties;
    private final Clock clock;
    private volatile @Nullable ScheduledFuture<?> task;

    /** Finalizes the drafts due now; answers how many it finalized. */
    int finalizeDue() {
        int finalized = 0;
        List<String> due;
        do {
            due = objects.dueDrafts(clock.instant().getEpochSecond(), BATCH);
            for (String id : due) {
                invoices.finalizeDueDraft(id);
                finalized++;
            }
        } while (due.size() == BATCH);
        return finalized;
    }

    private void run() {
        try {
            finalizeDue();
        } catch (RuntimeException e) {
            // the database may be briefly away: try again at the next round
            log.warn("Sandbox draft invoices could not be finalized: {}", e.toString());
        }
    }

    @Override
    public void start() {
        task = scheduler.scheduleWithFixedDelay(this::run, properties.pollInterval());
    }

    @Override
    public void stop() {
        ScheduledFuture<?> running = task;
        task = null;
        if (running != null) {
            running.cancel(false);
        }
    }

    @Override
    public boolean isRunning() {
        return task != null;
    }
}
