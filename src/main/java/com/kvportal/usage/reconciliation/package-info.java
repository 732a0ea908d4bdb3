/**
 * The daily reconciliation of the billed periods with the provider's overage items, and its runs. Internal to the
 * usage module.
 */
@NullMarked
package com.kvportal.usage.reconciliation;

import org.jspecify.annotations.NullMarked;
