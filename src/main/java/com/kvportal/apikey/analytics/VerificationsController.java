package com.kvportal.apikey.analytics;

import com.kvportal.apikey.ApiKeyProblem;
import com.kvportal.common.web.PageCursor;
import com.kvportal.common.web.PathIds;
import com.kvportal.common.web.ProblemException;
import com.kvportal.security.ApiContract;
import com.kvportal.security.Caller;
import com.kvportal.security.Credential;
import com.kvportal.security.Permission;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** How often keys were verified, by outcome, per key, organization or project, and the busiest keys. */
@RestController
@Tag(
        name = "Verifications",
        description = "How often the organization's keys were verified, by outcome, in minute, hour and day buckets.")
@RequiredArgsConstructor
class VerificationsController {

    static final int DEFAULT_TOP_KEYS = 10;
    static final int MAX_TOP_KEYS = 100;

    private final StoredVerifications stored;
    private final Clock clock;

    record Buckets(
            @Schema(allowableValues = {"minute", "hour", "day"}) String granularity,
            @Schema(description = "Oldest first; buckets without any verify are left out.")
                    List<VerificationBucket> buckets) {}

    record TopKeys(@Schema(description = "Most verifies first.") List<StoredVerifications.KeyTotal> keys) {}

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.READ)
    @ApiKeyProblem.Codes(ApiKeyProblem.API_KEY_NOT_FOUND)
    @GetMapping("/api/v1/api-keys/" + PathIds.ID + "/verifications")
    Buckets getApiKeyVerifications(
            Caller caller,
            @PathVariable @Parameter(description = "The key's id (revoked keys too).") UUID id,
            @RequestParam(required = false) @Parameter(description = GRANULARITY) @Nullable String granularity,
            @RequestParam(required = false) @Parameter(description = START) @Nullable String start,
            @RequestParam(required = false) @Parameter(description = END) @Nullable String end) {
        VerificationRange range = VerificationRange.parse(granularity, start, end, clock.instant());
        if (!stored.keyInProject(id, caller.projectId())) {
            throw new ProblemException(ApiKeyProblem.API_KEY_NOT_FOUND);
        }
        return new Buckets(range.granularity().wire(), stored.ofKey(id, range));
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.READ)
    @GetMapping("/api/v1/verifications")
    Buckets getVerifications(
            Caller caller,
            @RequestParam(required = false) @Parameter(description = GRANULARITY) @Nullable String granularity,
            @RequestParam(required = false) @Parameter(description = START) @Nullable String start,
            @RequestParam(required = false) @Parameter(description = END) @Nullable String end,
            @RequestParam(name = "project_id", required = false)
                    @Parameter(
                            description =
                                    "Only this project's keys (default: every project of the organization); a project of"
                                            + " another organization has none.")
                    @Nullable
                    UUID projectId) {
        VerificationRange range = VerificationRange.parse(granularity, start, end, clock.instant());
        return new Buckets(
                range.granularity().wire(), stored.ofOrganization(caller.organizationId(), projectId, range));
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.READ)
    @GetMapping("/api/v1/verifications/top-keys")
    TopKeys listTopKeys(
            Caller caller,
            @RequestParam(required = false) @Parameter(description = START) @Nullable String start,
            @RequestParam(required = false) @Parameter(description = END) @Nullable String end,
            @RequestParam(required = false)
                    @Parameter(
                            description = "How many keys, 1 to 100 (default 10).",
                            schema = @Schema(type = "integer", minimum = "1", maximum = "100"))
                    @Nullable
                    String limit) {
        Instant now = clock.instant();
        int count = PageCursor.limit(limit, DEFAULT_TOP_KEYS, MAX_TOP_KEYS);
        VerificationRange range = VerificationRange.parseForTopKeys(start, end, now);
        return new TopKeys(stored.busiest(caller.organizationId(), range, count));
    }

    private static final String GRANULARITY =
            "minute (reaching back 24 hours, the default), hour (30 days) or day (400 days).";
    private static final String START =
            "A timestamp; default: 24 hours before end. The bucket it falls in is the first.";
    private static final String END =
            "A timestamp, not before start; default: now. Buckets starting from it are left out.";
}
