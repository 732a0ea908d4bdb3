package com.kvportal.apikey;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.jspecify.annotations.Nullable;

/** The optional body of verify: the storage backend's client address, and what the verify costs. */
public record VerifyRequest(
        @Schema(description = "The address of the client the storage backend is serving.", nullable = true) @Nullable
                String clientIp,
        @Schema(
                        description = "What the verify takes from each rate limit and the credits; default 1.",
                        minimum = "0",
                        maximum = "1000",
                        defaultValue = "1")
                @Min(value = 0, message = "must be between 0 and 1000")
                @Max(value = 1000, message = "must be between 0 and 1000")
                @Nullable
                Integer cost) {

    static final VerifyRequest NONE = new VerifyRequest(null, null);

    int costOrDefault() {
        return cost == null ? 1 : cost;
    }
}
