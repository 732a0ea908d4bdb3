package com.kvportal.apikey.web;

import com.kvportal.apikey.cache.LeaseProblem;
import com.kvportal.apikey.cache.VerifyLeases;
import com.kvportal.common.web.PathIds;
import com.kvportal.security.ApiContract;
import com.kvportal.security.Credential;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;

/**
 * Verify leases for holders outside the service: the storage backend's processes cache verify answers under a lease,
 * follow its stream of invalidations and acknowledge them, so that a narrowing change waits for them as it waits for
 * the instances (docs/storage-backend.md, "Verify in your own process").
 */
@RestController
@RequestMapping("/api/v1/verify-leases")
@Tag(
        name = "Verify leases",
        description = "The storage backend verifies keys in its own process, from memory, under a lease: a narrowing"
                + " change answers only once every live lease acknowledged it or expired.")
@RequiredArgsConstructor
class VerifyLeaseController {

    private final VerifyLeases leases;
    private final LeaseEventStreams streams;

    record TakenLease(
            @Schema(description = "The lease's id, in the paths of its renewals, stream and acknowledgements.")
                    UUID leaseId,
            @Schema(description = "How long the lease lasts after the start of each renewal that succeeded.")
                    long ttlMs,
            @Schema(
                            description = "The path of the lease's event stream, resolved against the base URL.",
                            example = "/api/v1/verify-leases/0b1d2c3e-4f50-4a6b-8c7d-9e0f1a2b3c4d/events")
                    String eventsUrl) {}

    record RenewedLease(@Schema(description = "How long the lease lasts from the start of this renewal.") long ttlMs) {}

    record Acknowledgement(
            @Schema(
                            requiredMode = Schema.RequiredMode.REQUIRED,
                            description = "The seq of the last event whose keys the holder dropped: acknowledges it"
                                    + " and every one before it.",
                            minimum = "0")
                    @NotNull
                    @Nullable
                    Long seq) {}

    @ApiContract(success = HttpStatus.CREATED, credentials = Credential.USAGE_TOKEN)
    @PostMapping
    ResponseEntity<TakenLease> takeVerifyLease() {
        UUID id = leases.take();
        String path = "/api/v1/verify-leases/" + id;
        return ResponseEntity.created(URI.create(path))
                .body(new TakenLease(id, leases.ttl().toMillis(), path + "/events"));
    }

    @ApiContract(credentials = Credential.USAGE_TOKEN)
    @LeaseProblem.Codes(LeaseProblem.LEASE_EXPIRED)
    @PostMapping("/" + PathIds.ID + "/renew")
    RenewedLease renewVerifyLease(@PathVariable UUID id) {
        leases.renew(id);
        return new RenewedLease(leases.ttl().toMillis());
    }

    @ApiContract(success = HttpStatus.NO_CONTENT, credentials = Credential.USAGE_TOKEN)
    @LeaseProblem.Codes(LeaseProblem.LEASE_EXPIRED)
    @PostMapping(path = "/" + PathIds.ID + "/ack", consumes = MediaType.APPLICATION_JSON_VALUE)
    void acknowledgeVerifyLeaseEvents(@PathVariable UUID id, @Valid @RequestBody Acknowledgement request) {
        leases.acknowledge(id, request.seq());
    }

    @ApiContract(
            credentials = Credential.USAGE_TOKEN,
            successDescription = "A text/event-stream of the lease's events (key.changed, organization.changed, reset)"
                    + " and a keepalive comment every second.")
    @LeaseProblem.Codes(LeaseProblem.LEASE_EXPIRED)
    @GetMapping(path = "/" + PathIds.ID + "/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    ResponseEntity<ResponseBodyEmitter> followVerifyLease(@PathVariable UUID id) {
        long acknowledged = leases.acknowledged(id);
        return ResponseEntity.ok()
                .contentType(LeaseEventStreams.EVENT_STREAM)
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .header("X-Accel-Buffering", "no")
                .body(streams.open(id, acknowledged));
    }
}
