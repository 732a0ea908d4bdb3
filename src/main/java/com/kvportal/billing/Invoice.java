package com.kvportal.billing;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * An invoice of the organization, as the provider's webhook events reported it.
 *
 * @param subscriptionId our subscription it bills, once that subscription is known here
 * @param createdAt when the provider created the invoice
 * @param lines its lines, as the provider's newest news of it listed them
 */
public record Invoice(
        UUID id,
        UUID organizationId,
        @Nullable UUID subscriptionId,
        String providerInvoiceId,
        InvoiceStatus status,
        long amountDueCents,
        long amountPaidCents,
        String currency,
        int attemptCount,
        @Nullable String hostedInvoiceUrl,
        @Nullable Instant periodStart,
        @Nullable Instant periodEnd,
        Instant createdAt,
        Instant updatedAt,
        List<InvoiceLine> lines) {}
