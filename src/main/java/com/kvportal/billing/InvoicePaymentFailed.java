package com.kvportal.billing;

import java.util.UUID;

/** Charging an invoice of the organization failed ({@code invoice.payment_failed}, newer than what was known). */
public record InvoicePaymentFailed(UUID organizationId, String providerInvoiceId, int attemptCount) {}
