package com.kvportal.billing;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * An invoice of the organization, as the provider's webhook events reported it.
 *
 * @param subscriptionId our subscription it bills, once that subscription is known here
 * @param createdAt when the provider created the invoice
 * @param subtotalCents the total of its lines before discounts and tax, as the provider computed it
 * @param discountCents what its coupons took off, as the provider computed it
 * @param taxCents the tax on the subtotal after discounts, as the provider computed it
 * @param amountDueCents {@code subtotal_cents - discount_cents + tax_cents}, as the provider states it
 * @param lines its lines, as the provider's newest news of it listed them, and its discount as a line of its own
 */
public record Invoice(
        UUID id,
        UUID organizationId,
        @Schema(nullable = true, description = "The subscription it bills, once known here.") @Nullable
                UUID subscriptionId,
        @Schema(description = "The invoice at the payment provider.", example = "in_1MtHbELkdIwHu7ixl4OzzPMv")
                String providerInvoiceId,
        InvoiceStatus status,
        @Schema(description = "The total of the lines before discounts and tax.") long subtotalCents,
        @Schema(minimum = "0", description = "What the coupons took off.") long discountCents,
        @Schema(description = "The tax on the subtotal after discounts (automatic tax).") long taxCents,
        @Schema(
                        minimum = "0",
                        description = "subtotal_cents - discount_cents + tax_cents, as the provider computed it.")
                long amountDueCents,
        @Schema(minimum = "0") long amountPaidCents,
        @Schema(description = "ISO 4217, lower case.", example = "usd") String currency,
        @Schema(minimum = "0") int attemptCount,
        @Schema(nullable = true, format = "uri") @Nullable String hostedInvoiceUrl,
        @Schema(nullable = true) @Nullable Instant periodStart,
        @Schema(nullable = true) @Nullable Instant periodEnd,
        Instant createdAt,
        Instant updatedAt,
        List<InvoiceLine> lines) {}
