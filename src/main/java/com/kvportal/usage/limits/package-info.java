/**
 * The customer's usage limits: alert thresholds, storage cap, overage cap; read, replaced, and their SQL. Internal to
 * the usage module.
 */
@NullMarked
package com.kvportal.usage.limits;

import org.jspecify.annotations.NullMarked;
