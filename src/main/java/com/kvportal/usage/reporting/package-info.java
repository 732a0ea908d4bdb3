/**
 * The storage backend's reports: the samples (their SQL and parsing), the reporting tokens, and {@code StorageModel},
 * the storage over time and a period's overage. Internal to the usage module.
 */
@NullMarked
package com.kvportal.usage.reporting;

import org.jspecify.annotations.NullMarked;
