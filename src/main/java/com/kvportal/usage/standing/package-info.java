/**
 * The organization's usage as {@code GET /api/v1/usage} reads it: storage, allowance, entitlement, alert levels,
 * billed periods. Internal to the usage module.
 */
@NullMarked
package com.kvportal.usage.standing;

import org.jspecify.annotations.NullMarked;
