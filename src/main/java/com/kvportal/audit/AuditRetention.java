package com.kvportal.audit;

import com.kvportal.common.scheduling.PeriodicJob;
import com.kvportal.common.scheduling.ScheduledRuns;
import com.kvportal.common.scheduling.ScheduledRuns.Purge;
import lombok.RequiredArgsConstructor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Deletes the audit lines older than the retention ({@code kvportal.audit.retention}, default 400 days), every
 * {@code kvportal.audit.purge-interval} (1 h) from {@code purge-initial-delay} (1 min) after start-up.
 */
@Component
@RequiredArgsConstructor
class AuditRetention implements PeriodicJob {

    private static final Logger log = LoggerFactory.getLogger(AuditRetention.class);

    private final StoredAuditEvents events;
    private final AuditLog audit;
    private final AuditProperties properties;

    @Override
    public Schedule schedule() {
        return new Schedule("audit-retention", properties.purgeInitialDelay(), properties.purgeInterval(), this::purge);
    }

    void purge() {
        ScheduledRuns.purge(
                log,
                "Audit log",
                new Purge(
                        "events older than " + properties.retention(),
                        () -> events.deleteOlderThan(audit.now().minus(properties.retention()))));
    }
}
