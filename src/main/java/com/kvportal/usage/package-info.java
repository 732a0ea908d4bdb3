/**
 * Storage usage: the samples the storage backend reports, the organization's usage and allowance that verify
 * tells the backend (with the customer's limits: {@link com.kvportal.usage.WriteRefusal}), usage alerts, and the
 * answer to billing's one question, what a period's storage costs beyond the plan (billing's
 * {@link com.kvportal.billing.UsageCharges}, never above the customer's overage cap). This package is the module's
 * public face: {@link com.kvportal.usage.StorageStanding} is what verify asks; {@link com.kvportal.usage.UsageLimits}
 * and its events, {@link com.kvportal.usage.OverageBilled} and {@link com.kvportal.usage.UsageAlertRaised} (mailed to
 * the owners and billing members; the audit log's line, outgoing webhooks may listen too) are what others read. The
 * rooms below, by job, are internal: {@code reporting}, {@code standing}, {@code limits}, {@code alerts},
 * {@code overage}, {@code reconciliation} and {@code web} (the endpoints; no other room imports it).
 */
@ApplicationModule(
        allowedDependencies = {"billing", "billing :: ids", "account", "common", "openapi", "mail", "security"})
@NullMarked
package com.kvportal.usage;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
