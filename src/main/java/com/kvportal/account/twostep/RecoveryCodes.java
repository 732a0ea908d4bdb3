package com.kvportal.account.twostep;

import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

public record RecoveryCodes(
        @Schema(description = "Ten single-use codes, shown this once.") List<String> recoveryCodes) {}
