/**
 * Outgoing webhooks: an organization's endpoints, the events written in the transaction of the change
 * they tell of (the key, billing, usage and member events this feature listens to, as the audit log does),
 * and their signed deliveries (Standard Webhooks), claimed by one instance at a time and retried on a schedule.
 */
@ApplicationModule(
        allowedDependencies = {
            "account",
            "apikey",
            "billing",
            "billing :: ids",
            "common",
            "openapi",
            "mail",
            "security",
            "usage"
        })
@NullMarked
package com.kvportal.webhooks;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
