package com.kvportal.usage;

import java.time.Instant;
import java.util.UUID;

/**
 * A period's storage overage went onto a provider invoice (published inside the transaction that records it).
 *
 * @param providerInvoiceId the invoice that carries it: the renewal draft, or the final invoice of an ended
 *     subscription
 */
public record OverageBilled(
        UUID organizationId,
        String providerInvoiceId,
        long units,
        long amountCents,
        Instant periodStart,
        Instant periodEnd) {}
