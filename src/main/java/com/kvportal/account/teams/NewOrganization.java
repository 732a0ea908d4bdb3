package com.kvportal.account.teams;

import com.kvportal.account.Accounts;
import com.kvportal.common.validation.DisplayName;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

record NewOrganization(
        @Schema(description = "1-100 characters once trimmed, no control characters.", example = "Acme")
                @DisplayName(max = Accounts.MAX_NAME_LENGTH)
                @Nullable
                String name) {}
