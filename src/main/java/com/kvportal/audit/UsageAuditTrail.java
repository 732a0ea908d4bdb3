package com.kvportal.audit;

import static com.kvportal.audit.AuditLog.details;

import com.kvportal.audit.AuditEvent.Party;
import com.kvportal.usage.UsageEvent.OverageBilled;
import com.kvportal.usage.UsageEvent.UsageAlertRaised;
import com.kvportal.usage.UsageEvent.UsageLimitsUpdated;
import com.kvportal.usage.UsageLimits;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Turns usage's events into audit lines, inside the transactions that record them: billed overage (the webhook drives
 * it, so the actor is the provider), changed limits, and alerts (the service's own).
 */
@Component
@RequiredArgsConstructor
class UsageAuditTrail {

    private final AuditLog audit;

    @EventListener
    void overageBilled(OverageBilled e) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("units", e.units());
        details.put("amount_cents", e.amountCents());
        details.put("period_start", e.periodStart().toString());
        details.put("period_end", e.periodEnd().toString());
        audit.record(
                e.organizationId(),
                "usage.overage_billed",
                audit.actorOr(AuditLog.PROVIDER),
                new Party("invoice", e.providerInvoiceId(), e.providerInvoiceId()),
                null,
                details);
    }

    @EventListener
    void limitsUpdated(UsageLimitsUpdated e) {
        Map<String, Object> details = details("previous", limits(e.previous()), "limits", limits(e.limits()));
        audit.byCaller(e.organizationId(), "usage.limits_updated", organization(e.organizationId()), details);
    }

    /** A usage alert, raised by the service itself: {@code usage.threshold_crossed}, {@code usage.writes_*}. */
    @EventListener
    void alertRaised(UsageAlertRaised e) {
        audit.record(e.organizationId(), e.type(), AuditLog.SYSTEM, organization(e.organizationId()), null, e.data());
    }

    private static Party organization(UUID id) {
        return Party.of("organization", id, null);
    }

    private static Map<String, Object> limits(UsageLimits limits) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("alert_thresholds_percent", limits.alertThresholdsPercent());
        details.put("storage_cap_bytes", limits.storageCapBytes());
        details.put("overage_cap_cents", limits.overageCapCents());
        return details;
    }
}
