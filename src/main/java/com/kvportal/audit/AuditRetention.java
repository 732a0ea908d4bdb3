package com.kvportal.audit;

import com.kvportal.common.scheduling.ScheduledRuns;
import com.kvportal.common.scheduling.ScheduledRuns.Purge;
import lombok.RequiredArgsConstructor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/** Deletes the audit lines older than the retention ({@code kvportal.audit.retention}, default 400 days). */
@Component
@RequiredArgsConstructor
class AuditRetention {

    private static final Logger log = LoggerFactory.getLogger(AuditRetention.class);

    private final StoredAuditEvents events;
    private final AuditLog audit;
    private final AuditProperties properties;

    @Scheduled(
            initialDelayString = "${kvportal.audit.purge-initial-delay:PT1M}",
            fixedDelayString = "${kvportal.audit.purge-interval:PT1H}")
    void purge() {
        ScheduledRuns.purge(
                log,
                "Audit log",
                new Purge(
                        "events older than " + properties.retention(),
                        () -> events.deleteOlderThan(audit.now().minus(properties.retention()))));
    }
}
