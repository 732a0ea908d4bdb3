/**
 * Invoices as the provider's events report them: the ledger, the locked row's rule, their SQL. Internal to the
 * billing module.
 */
@NullMarked
package com.kvportal.billing.invoice;

import org.jspecify.annotations.NullMarked;
