package com.kvportal.usage.reconciliation;

import com.kvportal.common.scheduling.PeriodicJob;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Optional;
import lombok.RequiredArgsConstructor;
import org.springframework.stereotype.Component;

/**
 * Runs the reconciliation once a day (UTC), on one instance: every instance looks each
 * {@code kvportal.reconciliation.check-interval} (1 h, the first look {@code initial-delay}, 5 min, after start-up),
 * the one that takes the day's row runs it over the window before now and logs the differences; a run that fails
 * gives the day back, so that the next look (of any instance) tries again. A loss at the provider is seen within a
 * day.
 */
@Component
@RequiredArgsConstructor
public class DailyReconciliation implements PeriodicJob {

    private final Reconciliation reconciliation;
    private final ReconciliationRuns runs;
    private final ReconciliationProperties properties;
    private final Clock clock;

    @Override
    public Schedule schedule() {
        return new Schedule(
                "daily-reconciliation", properties.initialDelay(), properties.checkInterval(), this::runIfDue);
    }

    /** Today's run when no instance has run it yet; empty when one has (or is running it). */
    public Optional<Reconciliation.Report> runIfDue() {
        Instant now = clock.instant();
        LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
        if (!runs.claim(today)) {
            return Optional.empty();
        }
        try {
            Reconciliation.Report report = reconciliation.run(now.minus(properties.window()), now);
            runs.finish(today, report.differences().size());
            return Optional.of(report);
        } catch (RuntimeException e) {
            runs.release(today);
            throw e;
        }
    }
}
