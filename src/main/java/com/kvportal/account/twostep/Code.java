package com.kvportal.account.twostep;

import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

public record Code(@Schema(example = "123456") @Nullable String code) {}
