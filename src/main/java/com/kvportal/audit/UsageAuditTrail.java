package com.kvportal.audit;

import com.kvportal.audit.AuditEvent.Party;
import com.kvportal.usage.OverageBilled;
import java.util.LinkedHashMap;
import java.util.Map;
import lombok.RequiredArgsConstructor;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Turns usage's billed overage into an audit line, inside the transaction that records the billed period. The
 * webhook drives it, so the actor is the provider.
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
}
