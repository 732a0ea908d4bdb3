/**
 * Usage's answer to billing's {@code UsageCharges} (a period's storage overage, capped) and the billed periods it
 * records once billing's item is at the provider. Internal to the usage module.
 */
@NullMarked
package com.kvportal.usage.overage;

import org.jspecify.annotations.NullMarked;
