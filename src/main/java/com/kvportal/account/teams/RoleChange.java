package com.kvportal.account.teams;

import com.kvportal.common.validation.Required;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Pattern;
import org.jspecify.annotations.Nullable;

record RoleChange(
        @Schema(allowableValues = {"owner", "admin", "developer", "billing", "viewer"})
                @Required
                @Pattern(regexp = Teams.ROLES, message = "must be one of owner, admin, developer, billing, viewer")
                @Nullable
                String role) {}
