package com.kvportal.account.teams;

import com.kvportal.common.validation.EmailAddress;
import com.kvportal.common.validation.Required;
import com.kvportal.security.Role;
import com.kvportal.security.RoleName;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

record NewInvitation(
        @Schema(description = "The address to invite.", example = "bob@example.com") @EmailAddress @Nullable
                String email,
        @Schema(description = "The role offered; not owner.") @Required @RoleName(except = Role.OWNER) @Nullable
                String role) {}
