package com.kvportal.apikey.analytics;

import io.swagger.v3.oas.annotations.media.Schema;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/** The verifies of one bucket, by outcome: {@code [start, start + granularity)}. */
public record VerificationBucket(
        @Schema(description = "The bucket's start, aligned to the granularity in UTC.") Instant start,
        long valid,
        long revoked,
        long expired,
        long disabled,
        long ipNotAllowed,
        long rateLimited,
        long creditsExhausted) {

    /** A row whose columns are {@code bucket_start} and one per {@link Outcome}, under its wire name. */
    static VerificationBucket of(ResultSet rs, int row) throws SQLException {
        return new VerificationBucket(
                rs.getTimestamp("bucket_start").toInstant(),
                rs.getLong("valid"),
                rs.getLong("revoked"),
                rs.getLong("expired"),
                rs.getLong("disabled"),
                rs.getLong("ip_not_allowed"),
                rs.getLong("rate_limited"),
                rs.getLong("credits_exhausted"));
    }
}
