package com.kvportal.apikey.analytics;

import com.kvportal.apikey.analytics.VerificationCounter.Counted;
import java.util.List;

/**
 * Where the counts of a flush go: the one seam between counting and its store. Today {@link
 * PostgresVerificationWriter}; a column store (ClickHouse, as docs/operations.md describes) would be another
 * implementation of this interface, with {@link StoredVerifications}' reads beside it.
 */
interface VerificationWriter {

    /**
     * Adds the counts of one flush to the store, all or nothing (counts of keys that no longer exist are dropped).
     * Throws when nothing was written: the caller keeps the counts for the next flush.
     */
    void write(List<Counted> counted);
}
