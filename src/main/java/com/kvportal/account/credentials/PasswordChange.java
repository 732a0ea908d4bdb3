package com.kvportal.account.credentials;

import com.kvportal.common.validation.NewPassword;
import com.kvportal.common.validation.Required;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

record PasswordChange(
        @Required @Nullable String currentPassword,
        @Schema(description = "12 to 128 characters.") @NewPassword @Nullable String newPassword) {}
