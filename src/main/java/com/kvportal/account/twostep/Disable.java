package com.kvportal.account.twostep;

import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

public record Disable(
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) @Nullable String currentPassword,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "123456") @Nullable String code) {}
