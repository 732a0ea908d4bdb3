package com.kvportal.audit;

import com.kvportal.security.Caller;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The current organization's audit log, newest first, a page at a time. */
@RestController
class AuditController {

    private final AuditLog log;

    AuditController(AuditLog log) {
        this.log = log;
    }

    @GetMapping("/api/v1/audit-events")
    AuditLog.Page events(
            Caller caller,
            @RequestParam(required = false) @Nullable String limit,
            @RequestParam(required = false) @Nullable String cursor) {
        return log.page(caller, limit, cursor);
    }
}
