package com.kvportal.billing;

import java.time.Instant;
import java.util.UUID;

/**
 * The provider drafted the renewal invoice of a subscription ({@code invoice.created}, billing reason
 * {@code subscription_cycle}, status draft): items added to it now are billed with it. Published inside the
 * webhook's transaction, before the webhook answers; a listener that throws makes the provider retry.
 *
 * @param tier the plan of the subscription that the invoice renews
 * @param periodStart the start of the period that ended (the invoice's {@code period_start})
 * @param periodEnd the end of the period that ended (the invoice's {@code period_end})
 */
public record RenewalInvoiceDrafted(
        UUID organizationId,
        String providerInvoiceId,
        String providerCustomerId,
        Tier tier,
        Instant periodStart,
        Instant periodEnd) {}
