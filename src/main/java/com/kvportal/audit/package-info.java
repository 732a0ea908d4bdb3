/**
 * The audit log: who did what to which key, project, subscription or invoice, from where. It listens to the
 * features' events synchronously, so that each line is written in the transaction of the change it records; no
 * feature depends on it. {@link com.kvportal.audit.AuditLog} is its public surface.
 */
@ApplicationModule(
        allowedDependencies = {
            "account",
            "apikey",
            "billing",
            "billing :: ids",
            "common",
            "openapi",
            "security",
            "usage",
            "webhooks"
        })
@NullMarked
package com.kvportal.audit;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
