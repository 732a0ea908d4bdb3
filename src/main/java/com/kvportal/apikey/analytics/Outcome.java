package com.kvportal.apikey.analytics;

/**
 * How a verify of a known key was answered: accepted ({@link #VALID}) or refused for one reason. Each is a column of
 * the counts and a field of the buckets the API answers, under its {@link #wire()} name.
 */
public enum Outcome {
    VALID,
    REVOKED,
    EXPIRED,
    DISABLED,
    IP_NOT_ALLOWED,
    RATE_LIMITED,
    CREDITS_EXHAUSTED;

    private static final Outcome[] ALL = values();

    /** The column and the field: {@code ip_not_allowed}. */
    public String wire() {
        return name().toLowerCase();
    }

    public boolean refused() {
        return this != VALID;
    }

    static Outcome[] all() {
        return ALL;
    }
}
