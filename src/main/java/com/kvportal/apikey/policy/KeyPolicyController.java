package com.kvportal.apikey.policy;

import com.kvportal.security.ApiContract;
import com.kvportal.security.Caller;
import com.kvportal.security.Credential;
import com.kvportal.security.Permission;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import lombok.RequiredArgsConstructor;
import org.hibernate.validator.constraints.Range;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/key-policy")
@Tag(name = "API keys")
@RequiredArgsConstructor
class KeyPolicyController {

    private static final String LIFETIME_RULE = "must be null or 1-365 (days)";

    private final KeyPolicies policies;

    /** The body of a PUT: it replaces the policy, and a field left out takes its default. */
    @Schema(name = "KeyPolicyReplacement")
    record Replacement(
            @Schema(nullable = true, minimum = "1", maximum = "365", description = "Left out or null: no maximum.")
                    @Range(min = 1, max = 365, message = LIFETIME_RULE)
                    @Nullable
                    Integer maxLifetimeDays,
            @Schema(description = "Left out: false.", defaultValue = "false") @Nullable Boolean requireAllowedIps) {}

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.READ)
    @GetMapping
    KeyPolicy getKeyPolicy(Caller caller) {
        return policies.of(caller.organizationId());
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.MANAGE_ADMIN_KEYS)
    @PutMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    KeyPolicy replaceKeyPolicy(Caller caller, @Valid @RequestBody Replacement request) {
        KeyPolicy policy = new KeyPolicy(request.maxLifetimeDays(), Boolean.TRUE.equals(request.requireAllowedIps()));
        policies.replace(caller.organizationId(), policy);
        return policy;
    }
}
