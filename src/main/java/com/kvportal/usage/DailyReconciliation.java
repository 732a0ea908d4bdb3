package com.kvportal.usage;

import com.kvportal.common.scheduling.ScheduledRuns;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Optional;
import lombok.RequiredArgsConstructor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Runs the reconciliation once a day (UTC), on one instance: every instance looks each check interval, the one that
 * takes the day's row runs it over the window before now and logs the differences; a run that fails gives the day
 * back, so that the next look (of any instance) tries again. A loss at the provider is seen within a day.
 */
@Component
@RequiredArgsConstructor
class DailyReconciliation {

    private static final Logger log = LoggerFactory.getLogger(DailyReconciliation.class);

    private final Reconciliation reconciliation;
    private final ReconciliationRuns runs;
    private final ReconciliationProperties properties;
    private final Clock clock;

    @Scheduled(
            initialDelayString = "${kvportal.reconciliation.initial-delay:PT5M}",
            fixedDelayString = "${kvportal.reconciliation.check-interval:PT1H}")
    void check() {
        ScheduledRuns.orNextRun(log, "The daily reconciliation", this::runIfDue);
    }

    /** Today's run when no instance has run it yet; empty when one has (or is running it). */
    Optional<Reconciliation.Report> runIfDue() {
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
