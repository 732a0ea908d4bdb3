package com.kvportal.account.twostep;

import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

public record SecondStep(
        @Schema(description = "The authenticator's current code.", example = "123456") @Nullable String code,
        @Schema(description = "Or one of the recovery codes.") @Nullable String recoveryCode) {}
