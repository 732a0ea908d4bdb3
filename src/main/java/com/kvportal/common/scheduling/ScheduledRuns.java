package com.kvportal.common.scheduling;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The body of a background job. A run that fails (e.g. the database is away) is logged and left to the next run,
 * which tries again: every job here is idempotent, or marks what it handled in the transaction that handles it.
 */
public final class ScheduledRuns {

    /** One delete of a clean-up: what it deletes, e.g. {@code "finished outbox rows"}, and how many rows went. */
    public record Purge(String what, IntSupplier delete) {}

    private ScheduledRuns() {}

    /**
     * Runs {@code run}; a failure is logged as a one-line warning naming {@code job} (a database away for a minute
     * fails every run of a one-second job), its stack trace at debug, and the next run tries again.
     */
    public static void orNextRun(Logger log, String job, Runnable run) {
        try {
            run.run();
        } catch (RuntimeException e) {
            log.warn("{} failed; the next run tries again: {}", job, e.toString());
            log.debug("{} failed", job, e);
        }
    }

    /**
     * Runs batch after batch, each in a transaction of its own, while the last one says there may be more; a batch
     * that fails is rolled back, and the failure ends the run.
     */
    public static void inBatches(TransactionTemplate transactions, BooleanSupplier batch) {
        while (Boolean.TRUE.equals(transactions.execute(status -> batch.getAsBoolean()))) {
            // next batch
        }
    }

    /**
     * Deletes what is older than its retention, in order, and logs how many rows each delete took when any took
     * one, e.g. "Mail: purged 3 sandbox messages, 0 finished outbox rows". A failure ends the run (as a
     * {@link PeriodicJob}'s, it waits for the next one).
     */
    public static void purge(Logger log, String feature, Purge... purges) {
        List<String> counts = new ArrayList<>();
        int total = 0;
        for (Purge purge : purges) {
            int deleted = purge.delete().getAsInt();
            counts.add(deleted + " " + purge.what());
            total += deleted;
        }
        if (total > 0) {
            log.info("{}: purged {}", feature, String.join(", ", counts));
        }
    }
}
