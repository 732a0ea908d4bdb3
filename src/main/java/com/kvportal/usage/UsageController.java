package com.kvportal.usage;

import com.kvportal.security.Caller;
import com.kvportal.usage.BilledPeriods.BilledPeriod;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

@RestController
class UsageController {

    private final StorageReporting reporting;
    private final UsageReading reading;

    UsageController(StorageReporting reporting, UsageReading reading) {
        this.reporting = reporting;
        this.reading = reading;
    }

    /** The storage backend's report; its token was checked before the body was read ({@link ReportingAuthentication}). */
    @PostMapping(path = ReportingAuthentication.REPORTING_PATH, consumes = MediaType.APPLICATION_JSON_VALUE)
    StorageReporting.Outcome report(@RequestBody(required = false) @Nullable JsonNode body) {
        return reporting.report(ReportedSample.parseBatch(body));
    }

    @GetMapping("/api/v1/usage")
    UsageReading.Usage usage(Caller caller) {
        return reading.usage(caller.organizationId());
    }

    @GetMapping("/api/v1/usage/periods")
    Map<String, List<BilledPeriod>> periods(Caller caller) {
        return Map.of("periods", reading.periods(caller.organizationId()));
    }
}
