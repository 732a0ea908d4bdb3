package com.kvportal.usage;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * What usage tells the other modules, published synchronously inside the transaction that recorded it (a listener
 * runs in that transaction, and its failure rolls the change back): one sealed family, each about an organization.
 */
public sealed interface UsageEvent {

    UUID organizationId();

    /**
     * A period's storage overage went onto a provider invoice (published inside the transaction that records it).
     *
     * @param providerInvoiceId the invoice that carries it: the renewal draft, or the final invoice of an ended
     *     subscription
     */
    record OverageBilled(
            UUID organizationId,
            String providerInvoiceId,
            long units,
            long amountCents,
            Instant periodStart,
            Instant periodEnd)
            implements UsageEvent {}

    /** An organization replaced its usage limits (published inside the transaction that stores them). */
    record UsageLimitsUpdated(UUID organizationId, UsageLimits previous, UsageLimits limits) implements UsageEvent {}

    /**
     * An alert about an organization's usage, published inside the transaction that records it (with its
     * mail in the outbox), once per alert whatever instance raised it and however often it crashed. The audit log writes
     * it as a line; outgoing webhooks forward it. One record per kind of alert; {@link #type()} is the audit action and
     * webhook event name, {@link #data()} the alert as both carry it.
     */
    sealed interface UsageAlertRaised extends UsageEvent {

        String THRESHOLD_CROSSED = "usage.threshold_crossed";
        String WRITES_REFUSED = "usage.writes_refused";
        String WRITES_ALLOWED = "usage.writes_allowed";

        UUID organizationId();

        long usedBytes();

        /** What the alert is: its type and what it says besides {@code used_bytes}. */
        Description description();

        /**
         * @param type {@code usage.threshold_crossed}, {@code usage.writes_refused} or {@code usage.writes_allowed}
         * @param details {@code {threshold_percent}} for a crossed threshold, {@code {reason}} when writes are refused
         *     and nothing when they are allowed again
         */
        record Description(String type, Map<String, Object> details) {}

        /** {@code usage.threshold_crossed}, {@code usage.writes_refused} or {@code usage.writes_allowed}. */
        default String type() {
            return description().type();
        }

        /** The alert's details, then {@code used_bytes}. */
        default Map<String, Object> data() {
            Map<String, Object> data = new LinkedHashMap<>(description().details());
            data.put("used_bytes", usedBytes());
            return data;
        }

        /** Storage crossed one of the organization's alert thresholds (a percentage of the plan's storage). */
        record ThresholdCrossed(UUID organizationId, int thresholdPercent, long usedBytes) implements UsageAlertRaised {
            @Override
            public Description description() {
                return new Description(THRESHOLD_CROSSED, Map.of("threshold_percent", thresholdPercent));
            }
        }

        /** Verify now tells the storage backend to refuse writes, for this reason. */
        record WritesRefused(UUID organizationId, WriteRefusal reason, long usedBytes) implements UsageAlertRaised {
            @Override
            public Description description() {
                return new Description(WRITES_REFUSED, Map.of("reason", reason.wire()));
            }
        }

        /** Writes are allowed again. */
        record WritesAllowed(UUID organizationId, long usedBytes) implements UsageAlertRaised {
            @Override
            public Description description() {
                return new Description(WRITES_ALLOWED, Map.of());
            }
        }
    }
}
