package com.kvportal.billing.stripe;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** The provider's timestamps are Unix seconds. */
final class Epoch {

    private Epoch() {}

    static @Nullable Instant instant(@Nullable Long seconds) {
        return seconds == null ? null : Instant.ofEpochSecond(seconds);
    }
}
