package com.kvportal.apikey;

import com.kvportal.security.BearerToken;
import com.kvportal.security.Caller;
import jakarta.validation.Valid;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/api-keys")
class ApiKeyController {

    static final String HINT = "Store this key now: it is shown only once and cannot be recovered.";

    private final ApiKeys apiKeys;

    ApiKeyController(ApiKeys apiKeys) {
        this.apiKeys = apiKeys;
    }

    record CreatedResponse(String apiKey, String hint, ApiKey key) {}

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<CreatedResponse> create(Caller caller, @Valid @RequestBody NewApiKey request) {
        ApiKeys.Created created = apiKeys.create(caller, request);
        return ResponseEntity.created(
                        URI.create("/api/v1/api-keys/" + created.key().id()))
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .body(new CreatedResponse(created.rawKey(), HINT, created.key()));
    }

    @GetMapping
    Map<String, List<ApiKey>> list(Caller caller) {
        return Map.of("keys", apiKeys.list(caller));
    }

    @PatchMapping(path = "/{id}", consumes = MediaType.APPLICATION_JSON_VALUE)
    ApiKey update(Caller caller, @PathVariable UUID id, @RequestBody KeyUpdate request) {
        return apiKeys.update(caller, id, request);
    }

    record Previous(UUID id, Instant expiresAt) {}

    record RolledResponse(String apiKey, String hint, ApiKey key, Previous previous) {}

    /** The body is optional: a roll without one takes the defaults (one day of grace, 90 days of life). */
    @PostMapping("/{id}/roll")
    ResponseEntity<RolledResponse> roll(
            Caller caller, @PathVariable UUID id, @RequestBody(required = false) @Nullable KeyRoll request) {
        ApiKeys.Rolled rolled = apiKeys.roll(caller, id, request == null ? new KeyRoll(null, null) : request);
        return ResponseEntity.created(
                        URI.create("/api/v1/api-keys/" + rolled.key().id()))
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .body(new RolledResponse(
                        rolled.rawKey(),
                        HINT,
                        rolled.key(),
                        new Previous(rolled.previousId(), rolled.previousExpiresAt())));
    }

    @PostMapping("/verify")
    VerifiedKey verify(
            @RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) @Nullable String authorization) {
        return apiKeys.verify(BearerToken.of(authorization).orElse(null));
    }

    @DeleteMapping("/{id}")
    ResponseEntity<Void> revoke(Caller caller, @PathVariable UUID id) {
        apiKeys.revoke(caller, id);
        return ResponseEntity.noContent().build();
    }
}
