package com.kvportal.billing.invoice;

import com.kvportal.billing.InvoiceStatus;
import com.kvportal.billing.stripe.ProviderInvoice;
import com.kvportal.billing.subscription.BillingAccount;
import com.kvportal.common.database.InCallersTransaction;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes what the provider says about invoices (with their lines) under the rule of {@link LockedInvoice}: older
 * news never overwrites newer, and an invoice never goes back. Runs inside its caller's transaction.
 */
@InCallersTransaction
@RequiredArgsConstructor
public class InvoiceLedger {

    private static final Logger log = LoggerFactory.getLogger(InvoiceLedger.class);

    private final StoredInvoices invoices;

    /**
     * The news was written.
     *
     * @param before the invoice's status before; null when it was new here
     */
    public record Recorded(@Nullable InvoiceStatus before) {

        /** Whether the invoice turned {@code status} with this news. */
        public boolean turned(InvoiceStatus status) {
            return before != status;
        }
    }

    /** @return empty when the news was older than what is recorded, or the invoice is another organization's */
    public Optional<Recorded> record(BillingAccount account, ProviderInvoice invoice, Instant stateAt) {
        UUID organizationId = account.organizationId();
        if (invoices.insertIfAbsent(organizationId, invoice, stateAt).isPresent()) {
            log.info(
                    "Invoice {} of organization {} recorded as {}",
                    invoice.id(),
                    organizationId,
                    invoice.status().wire());
            return Optional.of(new Recorded(null));
        }
        LockedInvoice row = invoices.lock(invoice.id()).orElseThrow();
        if (!row.organizationId().equals(organizationId)) {
            log.warn("Ignoring invoice {}: it belongs to organization {}", invoice.id(), row.organizationId());
            return Optional.empty();
        }
        if (!row.accepts(invoice.status(), stateAt)) {
            log.info(
                    "Ignoring older news of invoice {} ({} stays {})",
                    invoice.id(),
                    invoice.status().wire(),
                    row.status().wire());
            return Optional.empty();
        }
        invoices.update(row.id(), invoice, stateAt);
        return Optional.of(new Recorded(row.status()));
    }
}
