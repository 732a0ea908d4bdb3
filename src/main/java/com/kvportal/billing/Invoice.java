package com.kvportal.billing;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * An invoice of the organization, as the provider's webhook events reported it.
 *
 * @param subscriptionId our subscription it bills, once that subscription is known here
 * @param status draft, open, paid, uncollectible or void
 * @param createdAt when the provider created the invoice
 */
public record Invoice(
        UUID id,
        UUID organizationId,
        @Nullable UUID subscriptionId,
        String providerInvoiceId,
        String status,
        long amountDueCents,
        long amountPaidCents,
        String currency,
        int attemptCount,
        @Nullable String hostedInvoiceUrl,
        @Nullable Instant periodStart,
        @Nullable Instant periodEnd,
        Instant createdAt,
        Instant updatedAt) {}
