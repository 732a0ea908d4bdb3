package com.kvportal.usage;

import com.kvportal.common.openapi.ApiContract;
import com.kvportal.common.openapi.Credential;
import com.kvportal.security.Caller;
import com.kvportal.usage.BilledPeriods.BilledPeriod;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
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
class UsageController {

    private final StorageReporting reporting;
    private final UsageReading reading;
    private final Limits limits;

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
    @Operation(
            operationId = "reportStorage",
            summary = "Report storage samples",
            description = "The storage backend reports how much each project stores (1-1,000 samples). A structurally"
                    + " bad body stores nothing (400). Otherwise each sample is accepted, a duplicate (its id was"
                    + " accepted before: the first one wins), or rejected (`project_not_found`,"
                    + " `sample_out_of_range`). Retrying a whole batch is always safe.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            required = true,
                            content =
                                    @Content(
                                            mediaType = MediaType.APPLICATION_JSON_VALUE,
                                            schema = @Schema(implementation = StorageReportDoc.class))))
    @ApiContract(credentials = Credential.USAGE_TOKEN)
    @PostMapping(path = ReportingAuthentication.REPORTING_PATH, consumes = MediaType.APPLICATION_JSON_VALUE)
    StorageReporting.Outcome report(
            @RequestBody(required = false) @io.swagger.v3.oas.annotations.Parameter(hidden = true) @Nullable
                    JsonNode body) {
        return reporting.report(ReportedSample.parseBatch(body));
    }

    @Operation(
            operationId = "getUsage",
            summary = "Read the storage usage",
            description = "The current organization's storage in its current period (the subscription's, or the UTC"
                    + " calendar month): allowance, current and average storage, the projected overage if the"
                    + " current storage holds, per project, and per UTC day so far.")
    @ApiContract(credentials = Credential.PORTAL)
    @GetMapping("/api/v1/usage")
    UsageReading.Usage usage(Caller caller) {
        return reading.usage(caller.organizationId());
    }

    @Operation(
            operationId = "listBilledPeriods",
            summary = "List the billed periods",
            description = "The periods whose storage overage was billed, newest first, with the provider's invoice.")
    @ApiContract(credentials = Credential.PORTAL)
    @GetMapping("/api/v1/usage/periods")
    PeriodList periods(Caller caller) {
        return new PeriodList(reading.periods(caller.organizationId()));
    }

    @Operation(
            operationId = "getUsageLimits",
            summary = "Read the usage limits",
            description = "The current organization's alert thresholds, storage cap and overage cap; the defaults"
                    + " (thresholds 75, 90, 100; no caps) until they are set.")
    @ApiContract(credentials = Credential.PORTAL)
    @GetMapping("/api/v1/usage/limits")
    UsageLimits limits(Caller caller) {
        return limits.of(caller.organizationId());
    }

    @Operation(
            operationId = "putUsageLimits",
            summary = "Replace the usage limits",
            description = "Replaces the whole object, an omitted field taking its default. Thresholds: 0-5 distinct"
                    + " integers 1-100 (answered in ascending order). `storage_cap_bytes` (any plan): verify refuses"
                    + " writes (`reason: storage_cap`) once storage reaches it. `overage_cap_cents` (plans with overage"
                    + " only, else `not_on_this_plan`): verify refuses writes above the allowance (`reason:"
                    + " overage_cap`) once the projected overage reaches it, and no period's overage bill exceeds it."
                    + " Every instance's verify follows within 2 seconds.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            required = true,
                            content =
                                    @Content(
                                            mediaType = MediaType.APPLICATION_JSON_VALUE,
                                            schema = @Schema(implementation = UsageLimits.class))))
    @ApiContract(credentials = Credential.PORTAL)
    @UsageProblem.Codes(UsageProblem.NOT_ON_THIS_PLAN)
    @PutMapping(path = "/api/v1/usage/limits", consumes = MediaType.APPLICATION_JSON_VALUE)
    UsageLimits replaceLimits(
            Caller caller,
            @RequestBody(required = false) @io.swagger.v3.oas.annotations.Parameter(hidden = true) @Nullable
                    JsonNode body) {
        return limits.replace(caller.organizationId(), UsageLimits.parse(body));
    }
}
