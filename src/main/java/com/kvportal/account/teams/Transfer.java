package com.kvportal.account.teams;

import com.kvportal.common.validation.Required;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

record Transfer(
        @Schema(description = "The member who becomes owner.") @Required @Nullable UUID customerId,
        @Required @Nullable String currentPassword) {}
