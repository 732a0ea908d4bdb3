package com.kvportal.usage;

import java.util.Map;
import java.util.UUID;

/**
 * An alert about an organization's usage, published inside the transaction that records it (with its
 * mail in the outbox), once per alert whatever instance raised it and however often it crashed. The audit log writes
 * it as a line; a feature that forwards events (outgoing webhooks) listens to it as well, e.g. with
 * {@code @TransactionalEventListener} or by writing its own outbox row in the same transaction.
 *
 * @param type {@value #THRESHOLD_CROSSED}, {@value #WRITES_REFUSED} or {@value #WRITES_ALLOWED}, the audit action and
 *     webhook event name
 * @param data {@code {threshold_percent, used_bytes}} for a crossed threshold, {@code {reason, used_bytes}} when
 *     writes are refused and {@code {used_bytes}} when they are allowed again
 */
public record UsageAlertRaised(UUID organizationId, String type, Map<String, Object> data) {

    public static final String THRESHOLD_CROSSED = "usage.threshold_crossed";
    public static final String WRITES_REFUSED = "usage.writes_refused";
    public static final String WRITES_ALLOWED = "usage.writes_allowed";

    public UsageAlertRaised {
        data = Map.copyOf(data);
    }
}
