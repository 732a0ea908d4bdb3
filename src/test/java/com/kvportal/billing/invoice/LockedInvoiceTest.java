package com.kvportal.billing.invoice;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.billing.InvoiceStatus;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The rule for the provider's news of a locked invoice row, without a database. */
class LockedInvoiceTest {

    private static final Instant AT = Instant.parse("2026-11-21T10:00:00Z");

    private static LockedInvoice invoice(InvoiceStatus status) {
        return new LockedInvoice(UUID.randomUUID(), UUID.randomUUID(), status, AT);
    }

    @Test
    void aLockedInvoiceAcceptsNewsAsNewAsItsStateAndRefusesOlderNews() {
        assertThat(invoice(InvoiceStatus.OPEN).accepts(InvoiceStatus.PAID, AT)).isTrue();
        assertThat(invoice(InvoiceStatus.OPEN).accepts(InvoiceStatus.PAID, AT.plusSeconds(1)))
                .isTrue();
        assertThat(invoice(InvoiceStatus.OPEN).accepts(InvoiceStatus.PAID, AT.minusSeconds(1)))
                .isFalse();
        assertThat(invoice(InvoiceStatus.PAID).accepts(InvoiceStatus.OPEN, AT.plusSeconds(60)))
                .isFalse();
        assertThat(invoice(InvoiceStatus.OPEN).accepts(InvoiceStatus.DRAFT, AT)).isFalse();
    }
}
