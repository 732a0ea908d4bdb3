package com.kvportal.billing;

import java.util.UUID;

/** The provider reported an invoice of the organization paid ({@code invoice.paid}, newer than what was known). */
public record InvoicePaid(UUID organizationId, String providerInvoiceId, long amountPaidCents, String currency) {}
