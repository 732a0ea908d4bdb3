package com.kvportal.audit;

import com.kvportal.openapi.Paged;
import com.kvportal.security.ApiContract;
import com.kvportal.security.Caller;
import com.kvportal.security.Credential;
import com.kvportal.security.Permission;
import io.swagger.v3.oas.annotations.tags.Tag;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The current organization's audit log, newest first, a page at a time. */
@RestController
@Tag(name = "Audit log", description = "Who did what in the organization, newest first, a page at a time.")
@RequiredArgsConstructor
class AuditController {

    private final AuditLog log;

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.READ)
    @GetMapping("/api/v1/audit-events")
    AuditLog.Page listAuditEvents(
            Caller caller,
            @RequestParam(required = false) @Paged.Limit("Events per page.") @Nullable String limit,
            @RequestParam(required = false) @Paged.Cursor @Nullable String cursor) {
        return log.page(caller, limit, cursor);
    }
}
