package com.kvportal.sandbox.invoice;

import com.kvportal.common.scheduling.PeriodicJob;
import com.kvportal.sandbox.SandboxProperties;
import com.kvportal.sandbox.store.SandboxObjects;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import lombok.RequiredArgsConstructor;
import org.springframework.stereotype.Component;

/**
 * Finalizes and charges the drafts that advance by themselves once they are due, as Stripe does: a renewal as soon
 * as its {@code invoice.created} was answered 2xx, any such draft once its grace has passed. Looks every poll
 * interval ({@code kvportal.sandbox.poll-interval}, from start-up); several instances may run it (each draft is
 * finalized under its row lock, once).
 */
@Component
@RequiredArgsConstructor
public class DraftFinalizer implements PeriodicJob {

    private static final int BATCH = 20;

    private final SandboxObjects objects;
    private final StripeInvoices invoices;
    private final SandboxProperties properties;
    private final Clock clock;

    @Override
    public Schedule schedule() {
        return new Schedule("sandbox-draft-finalizer", Duration.ZERO, properties.pollInterval(), this::finalizeDue);
    }

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
}
