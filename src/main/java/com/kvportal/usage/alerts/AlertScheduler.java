package com.kvportal.usage.alerts;

import com.kvportal.common.scheduling.PeriodicJob;
import com.kvportal.usage.StorageStanding;
import com.kvportal.usage.UsageProperties;
import java.util.Set;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import lombok.extern.slf4j.Slf4j;
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
public class AlertScheduler implements PeriodicJob {

    private final StorageStanding standing;
    private final UsageAlerts alerts;
    private final UsageProperties properties;

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
    public Schedule schedule() {
        return Schedule.every("usage-alerts", properties.alertInterval(), this::evaluateChanged);
    }
}
