package com.kvportal.account.credentials;

import com.kvportal.common.validation.EmailAddress;
import com.kvportal.common.validation.Required;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

record EmailChange(
        @Schema(description = "A valid address of at most 254 characters, not taken.", example = "ada@new.example.com")
                @EmailAddress
                @Nullable
                String newEmail,
        @Required @Nullable String currentPassword) {}
