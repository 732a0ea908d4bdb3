package com.kvportal.billing.stripe;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** The provider's timestamps are Unix seconds. */
final class Epoch {

    /** 9999-12-31T23:59:59Z: later than any real provider timestamp, and still a PostgreSQL timestamptz. */
    static final long MAX_SECONDS = 253_402_300_799L;

    private Epoch() {}

    /** @throws OutOfRange for a value no provider sends (negative, or past the year 9999) */
    static @Nullable Instant instant(@Nullable Long seconds) {
        if (seconds == null) {
            return null;
        }
        if (seconds < 0 || seconds > MAX_SECONDS) {
            throw new OutOfRange(seconds);
        }
        return Instant.ofEpochSecond(seconds);
    }

    /** A timestamp that cannot be one: the object carrying it is malformed. */
    static final class OutOfRange extends IllegalArgumentException {
        OutOfRange(long seconds) {
            super("timestamp " + seconds + " is out of range");
        }
    }
}
