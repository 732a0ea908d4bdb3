package com.kvportal.account.twostep;

import com.kvportal.common.validation.Required;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

public record Start(
        @Schema(description = "The customer's password: turning two-step login on needs it.") @Required @Nullable
                String currentPassword) {}
