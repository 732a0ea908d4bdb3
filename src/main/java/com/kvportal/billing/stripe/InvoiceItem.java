package com.kvportal.billing.stripe;

import com.kvportal.billing.ids.ProviderInvoiceItemId;

/**
 * An invoice item the provider made.
 *
 * @param providerInvoiceItemId its id ({@code ii_...})
 * @param pending true when it was made without an invoice (it joins the customer's next invoice), because the
 *     requested invoice was no longer a draft or none was named
 */
public record InvoiceItem(ProviderInvoiceItemId providerInvoiceItemId, boolean pending) {}
