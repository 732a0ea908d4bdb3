package com.kvportal.usage.web;

import com.kvportal.openapi.JsonBody;
import com.kvportal.security.ApiContract;
import com.kvportal.security.Caller;
import com.kvportal.security.Credential;
import com.kvportal.security.Permission;
import com.kvportal.usage.StorageStanding;
import com.kvportal.usage.UsageLimits;
import com.kvportal.usage.UsageProblem;
import com.kvportal.usage.limits.Limits;
import com.kvportal.usage.overage.BilledPeriods.BilledPeriod;
import com.kvportal.usage.reporting.ReportedSample;
import com.kvportal.usage.reporting.StorageReporting;
import com.kvportal.usage.standing.UsageReading;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

@RestController
@Tag(
        name = "Usage",
        description = "Storage usage: the storage backend reports what each project stores; the portal reads the"
                + " organization's usage, allowance and billed overage.")
@RequiredArgsConstructor
public class UsageController {

    private final StorageReporting reporting;
    private final UsageReading reading;
    private final Limits limits;
    private final StorageStanding standing;

    /** The body of a report, for the document: {@link ReportedSample#parseBatch} reads it. */
    @Schema(name = "StorageReport")
    record StorageReportDoc(
            @ArraySchema(
                            minItems = 1,
                            maxItems = ReportedSample.MAX_SAMPLES,
                            arraySchema = @Schema(requiredMode = Schema.RequiredMode.REQUIRED))
                    List<StorageSampleDoc> samples) {}

    @Schema(name = "StorageSample")
    record StorageSampleDoc(
            @Schema(
                            requiredMode = Schema.RequiredMode.REQUIRED,
                            description =
                                    "Chosen by the reporter; a sample whose id was accepted before is a duplicate.",
                            minLength = 1,
                            maxLength = ReportedSample.MAX_ID_LENGTH)
                    String id,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED) UUID projectId,
            @Schema(
                            requiredMode = Schema.RequiredMode.REQUIRED,
                            description = "The total the project stores at `at`.",
                            minimum = "0")
                    long bytes,
            @Schema(
                            requiredMode = Schema.RequiredMode.REQUIRED,
                            description = "At most 35 days old and 5 minutes ahead (else rejected).")
                    java.time.Instant at) {}

    record PeriodList(@Schema(description = "The billed periods, newest first.") List<BilledPeriod> periods) {}

    /** The storage backend's report; its token was checked before the body was read ({@link ReportingAuthentication}). */
    @JsonBody(StorageReportDoc.class)
    @ApiContract(credentials = Credential.USAGE_TOKEN, maxBodyKiB = 1024) // 1,000 samples: about 130 KiB
    @PostMapping(path = "/api/v1/usage/storage", consumes = MediaType.APPLICATION_JSON_VALUE)
    StorageReporting.Outcome reportStorage(
            @RequestBody(required = false) @io.swagger.v3.oas.annotations.Parameter(hidden = true) @Nullable
                    JsonNode body) {
        return reporting.report(ReportedSample.parseBatch(body));
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.READ)
    @GetMapping("/api/v1/usage")
    UsageReading.Usage getUsage(Caller caller) {
        UUID organizationId = caller.organizationId();
        return reading.usage(organizationId, standing.standingOf(organizationId), limits.of(organizationId));
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.READ)
    @GetMapping("/api/v1/usage/periods")
    PeriodList listBilledPeriods(Caller caller) {
        return new PeriodList(reading.periods(caller.organizationId()));
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.READ)
    @GetMapping("/api/v1/usage/limits")
    UsageLimits getUsageLimits(Caller caller) {
        return limits.of(caller.organizationId());
    }

    @JsonBody(UsageLimits.class)
    @ApiContract(credentials = Credential.PORTAL, permission = Permission.MANAGE_BILLING)
    @UsageProblem.Codes(UsageProblem.NOT_ON_THIS_PLAN)
    @PutMapping(path = "/api/v1/usage/limits", consumes = MediaType.APPLICATION_JSON_VALUE)
    UsageLimits putUsageLimits(
            Caller caller,
            @RequestBody(required = false) @io.swagger.v3.oas.annotations.Parameter(hidden = true) @Nullable
                    JsonNode body) {
        return limits.replace(caller.organizationId(), UsageLimits.parse(body));
    }
}
