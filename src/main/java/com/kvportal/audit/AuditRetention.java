package com.kvportal.audit;

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
        try {
            int deleted = events.deleteOlderThan(audit.now().minus(properties.retention()));
            if (deleted > 0) {
                log.info("Purged {} audit events older than {}", deleted, properties.retention());
            }
        } catch (RuntimeException e) {
            log.warn("Could not purge old audit events; trying again at the next run", e);
        }
    }
}
