package com.kvportal.billing.invoice;

import com.kvportal.billing.InvoiceStatus;
import com.kvportal.billing.subscription.ProviderStamped;
import java.time.Instant;
import java.util.UUID;

/** An invoice row locked until the end of the transaction, with the rule for the provider's news of it. */
record LockedInvoice(UUID id, UUID organizationId, InvoiceStatus status, Instant providerStateAt)
        implements ProviderStamped {

    /**
     * Accept newer news: the provider's state stamped {@code newsAt} replaces the row's unless it is older, or
     * it would take the invoice back (settled to payable, finalized to draft).
     */
    boolean accepts(InvoiceStatus news, Instant newsAt) {
        return isNotNewerThan(newsAt) && status.canBecome(news);
    }
}
