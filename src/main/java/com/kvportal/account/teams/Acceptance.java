package com.kvportal.account.teams;

import com.kvportal.common.validation.Required;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

record Acceptance(@Schema(description = "The token of the invitation's link.") @Required @Nullable String token) {}
