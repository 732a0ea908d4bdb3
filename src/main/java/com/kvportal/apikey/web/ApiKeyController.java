package com.kvportal.apikey.web;

import com.kvportal.apikey.ApiKey;
import com.kvportal.apikey.ApiKeyProblem;
import com.kvportal.apikey.ApiKeys;
import com.kvportal.apikey.KeyRoll;
import com.kvportal.apikey.NewApiKey;
import com.kvportal.apikey.VerifiedKey;
import com.kvportal.apikey.fields.KeyUpdate;
import com.kvportal.apikey.limits.LimitProblem;
import com.kvportal.common.limits.ClientAddress;
import com.kvportal.common.web.BearerToken;
import com.kvportal.common.web.CommonProblem;
import com.kvportal.common.web.PathIds;
import com.kvportal.common.web.ShownOnce;
import com.kvportal.security.ApiContract;
import com.kvportal.security.Caller;
import com.kvportal.security.Credential;
import com.kvportal.security.Permission;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
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
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/api-keys")
@Tag(name = "API keys", description = "Create, list, verify and revoke the API keys of the active project.")
@RequiredArgsConstructor
class ApiKeyController {

    static final String HINT = "Store this key now: it is shown only once and cannot be recovered.";

    private final ApiKeys apiKeys;

    record CreatedApiKey(
            @Schema(
                            description = "The raw key: kv_ + 32 base62 characters. Shown in this answer only.",
                            pattern = "^kv_[0-9A-Za-z]{32}$",
                            example = "kv_3hT0bq8ZkE1mN4pR7sV2xY5aC9dF0gHj")
                    String apiKey,
            @Schema(description = "Tells the caller to store the key now.") String hint,
            ApiKey key) {}

    record ApiKeyList(@Schema(description = "The unrevoked keys, newest first.") List<ApiKey> keys) {}

    @ApiContract(
            success = HttpStatus.CREATED,
            credentials = Credential.PORTAL,
            permission = Permission.MANAGE_KEYS,
            verifiedEmail = true)
    @ApiKeyProblem.Codes({ApiKeyProblem.KEY_LIMIT_REACHED, ApiKeyProblem.KEY_POLICY_VIOLATION})
    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<CreatedApiKey> createApiKey(Caller caller, @Valid @RequestBody NewApiKey request) {
        ApiKeys.Created created = apiKeys.create(caller, request);
        return ShownOnce.created(
                "/api/v1/api-keys/" + created.key().id(), new CreatedApiKey(created.rawKey(), HINT, created.key()));
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.READ)
    @GetMapping
    ApiKeyList listApiKeys(
            Caller caller,
            @RequestParam(name = "external_id", required = false)
                    @Parameter(description = "Only the keys with this external id.")
                    @Nullable
                    String externalId) {
        return new ApiKeyList(apiKeys.list(caller, externalId));
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.MANAGE_KEYS)
    @ApiKeyProblem.Codes({ApiKeyProblem.API_KEY_NOT_FOUND, ApiKeyProblem.KEY_POLICY_VIOLATION})
    @PatchMapping(path = "/" + PathIds.ID, consumes = MediaType.APPLICATION_JSON_VALUE)
    ApiKey updateApiKey(Caller caller, @PathVariable UUID id, @Valid @RequestBody KeyUpdate request) {
        return apiKeys.update(caller, id, request);
    }

    @Schema(name = "RolledFrom")
    record Previous(
            @Schema(description = "The key that was rolled.") UUID id,
            @Schema(description = "When it stops working: min(its expiry, now + grace_seconds).") Instant expiresAt) {}

    @Schema(name = "RolledApiKey")
    record RolledResponse(
            @Schema(
                            description = "The new raw key: kv_ + 32 base62 characters. Shown in this answer only.",
                            pattern = "^kv_[0-9A-Za-z]{32}$")
                    String apiKey,
            @Schema(description = "Tells the caller to store the key now.") String hint,
            ApiKey key,
            Previous previous) {}

    /** The body is optional: a roll without one takes the defaults (one day of grace, 90 days of life). */
    @ApiContract(
            success = HttpStatus.CREATED,
            credentials = Credential.PORTAL,
            permission = Permission.MANAGE_KEYS,
            verifiedEmail = true)
    @ApiKeyProblem.Codes({
        ApiKeyProblem.API_KEY_NOT_FOUND,
        ApiKeyProblem.API_KEY_REVOKED,
        ApiKeyProblem.KEY_LIMIT_REACHED,
        ApiKeyProblem.KEY_POLICY_VIOLATION
    })
    @PostMapping(path = "/" + PathIds.ID + "/roll", consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<RolledResponse> rollApiKey(
            Caller caller, @PathVariable UUID id, @Valid @RequestBody(required = false) @Nullable KeyRoll request) {
        ApiKeys.Rolled rolled = apiKeys.roll(caller, id, request == null ? new KeyRoll(null, null) : request);
        return ShownOnce.created(
                "/api/v1/api-keys/" + rolled.key().id(),
                new RolledResponse(
                        rolled.rawKey(),
                        HINT,
                        rolled.key(),
                        new Previous(rolled.previousId(), rolled.previousExpiresAt())));
    }

    /** The body is optional: a verify without one has no client address and costs 1. */
    @ApiContract(credentials = Credential.API_KEY)
    @ApiKeyProblem.Codes({
        ApiKeyProblem.INVALID_API_KEY,
        ApiKeyProblem.PRESENTED_KEY_REVOKED,
        ApiKeyProblem.API_KEY_EXPIRED
    })
    @CommonProblem.Codes({CommonProblem.API_KEY_DISABLED, CommonProblem.IP_NOT_ALLOWED})
    @LimitProblem.Codes({LimitProblem.RATE_LIMITED, LimitProblem.CREDITS_EXHAUSTED})
    @PostMapping("/verify")
    VerifiedKey verifyApiKey(
            @RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) @Parameter(hidden = true) @Nullable
                    String authorization,
            @Valid @RequestBody(required = false) @Nullable VerifyRequest body,
            HttpServletRequest request) {
        return apiKeys.verify(
                BearerToken.of(authorization).orElse(null),
                ClientAddress.of(request),
                body == null ? VerifyRequest.NONE : body);
    }

    @ApiContract(success = HttpStatus.NO_CONTENT, credentials = Credential.PORTAL, permission = Permission.MANAGE_KEYS)
    @ApiKeyProblem.Codes(ApiKeyProblem.API_KEY_NOT_FOUND)
    @DeleteMapping("/" + PathIds.ID)
    void revokeApiKey(Caller caller, @PathVariable @Parameter(description = "The key's id.") UUID id) {
        apiKeys.revoke(caller, id);
    }
}
