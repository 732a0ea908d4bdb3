/**
 * Storage usage: the samples the storage backend reports, the organization's usage and allowance that verify
 * tells the backend (with the customer's limits: {@link com.kvportal.usage.WriteRefusal}), and the period's overage
 * billed on the provider's invoice, never above the customer's overage cap.
 * {@link com.kvportal.usage.StorageStanding} is what verify asks. Usage alerts (thresholds crossed, writes refused
 * or allowed again) are mailed to the owners and billing members and published as
 * {@link com.kvportal.usage.UsageAlertRaised} (the audit log's line; outgoing webhooks may listen too).
 */
@ApplicationModule(allowedDependencies = {"billing", "account", "common", "openapi", "mail", "security"})
@NullMarked
package com.kvportal.usage;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
