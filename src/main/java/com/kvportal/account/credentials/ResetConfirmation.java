package com.kvportal.account.credentials;

import com.kvportal.common.validation.NewPassword;
import com.kvportal.common.validation.Required;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

record ResetConfirmation(
        @Schema(description = "The token of the mailed link.") @Required @Nullable String token,
        @Schema(description = "The new password: 12 to 128 characters.") @NewPassword @Nullable String password) {}
