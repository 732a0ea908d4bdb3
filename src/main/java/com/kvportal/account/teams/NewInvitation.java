package com.kvportal.account.teams;

import com.kvportal.common.validation.EmailAddress;
import com.kvportal.common.validation.Required;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Pattern;
import org.jspecify.annotations.Nullable;

record NewInvitation(
        @Schema(description = "The address to invite.", example = "bob@example.com") @EmailAddress @Nullable
                String email,
        @Schema(
                        description = "The role offered; not owner.",
                        allowableValues = {"admin", "developer", "billing", "viewer"})
                @Required
                @Pattern(regexp = Teams.INVITABLE_ROLES, message = "must be one of admin, developer, billing, viewer")
                @Nullable
                String role) {}
