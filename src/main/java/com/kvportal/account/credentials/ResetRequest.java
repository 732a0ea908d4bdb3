package com.kvportal.account.credentials;

import com.kvportal.common.validation.Required;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

record ResetRequest(@Schema(example = "ada@example.com") @Required @Nullable String email) {}
