package com.kvportal.audit;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How long the audit log keeps its lines.
 *
 * @param retention lines older than this are purged (default 400 days, {@code KVPORTAL_AUDIT_RETENTION})
 * @param purgeInterval how often the purge runs
 * @param purgeInitialDelay when the first purge runs after start-up
 */
@ConfigurationProperties("kvportal.audit")
record AuditProperties(
        @DefaultValue("400d") Duration retention,
        @DefaultValue("1h") Duration purgeInterval,
        @DefaultValue("1m") Duration purgeInitialDelay) {

    AuditProperties {
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("kvportal.audit.retention must be positive, was " + retention);
        }
        if (purgeInterval.isNegative() || purgeInterval.isZero()) {
            throw new IllegalArgumentException("kvportal.audit.purge-interval must be positive, was " + purgeInterval);
        }
    }
}
