package com.kvportal.account.credentials;

import com.kvportal.common.validation.Required;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

record TokenBody(@Schema(description = "The token of the mailed link.") @Required @Nullable String token) {}
