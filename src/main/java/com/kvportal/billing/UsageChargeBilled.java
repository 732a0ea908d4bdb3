package com.kvportal.billing;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A period's usage charge is on a provider invoice (or, with no units, the renewal invoice of the period carries
 * none): published inside the transaction that records the provider's answer, after the provider made the item.
 *
 * @param providerInvoiceId the invoice that carries it: the renewal draft, or the final invoice of an ended
 *     subscription
 * @param providerInvoiceItemId the provider's item; null when none was made (no units) or it is on a final invoice
 * @param pending true when the item could not join its draft (no longer a draft) and waits for the next invoice
 */
public record UsageChargeBilled(
        UUID organizationId,
        String providerInvoiceId,
        @Nullable String providerInvoiceItemId,
        boolean pending,
        Instant periodStart,
        Instant periodEnd,
        UsageCharge charge) {}
