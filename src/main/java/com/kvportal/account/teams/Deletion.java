package com.kvportal.account.teams;

import com.kvportal.common.validation.Required;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

record Deletion(
        @Schema(description = "The organization's name, repeated.") @Required @Nullable String name,
        @Required @Nullable String currentPassword) {}
