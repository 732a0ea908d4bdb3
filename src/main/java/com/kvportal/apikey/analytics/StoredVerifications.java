package com.kvportal.apikey.analytics;

import java.sql.Timestamp;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The reads of the counts: each from the table of its granularity only (hour and day rows are added to at every
 * flush, beside the minute rows: no read sums minutes into hours).
 */
@Repository
@RequiredArgsConstructor
class StoredVerifications {

    private static final String SUMS = Stream.of(Outcome.all())
            .map(o -> "sum(v." + o.wire() + ") as " + o.wire())
            .collect(Collectors.joining(", "));
    private static final String COLUMNS =
            Stream.of(Outcome.all()).map(o -> "v." + o.wire()).collect(Collectors.joining(", "));
    private static final String REFUSED = Stream.of(Outcome.all())
            .filter(Outcome::refused)
            .map(o -> "v." + o.wire())
            .collect(Collectors.joining(" + "));

    private final JdbcClient jdbc;

    /** A key of the project (revoked or not). */
    boolean keyInProject(UUID keyId, UUID projectId) {
        return jdbc.sql("select exists (select 1 from api_keys where id = ? and project_id = ?)")
                .params(keyId, projectId)
                .query(Boolean.class)
                .single();
    }

    List<VerificationBucket> ofKey(UUID keyId, VerificationRange range) {
        return jdbc.sql("select v.bucket_start, " + COLUMNS + " from "
                        + range.granularity().table() + " v"
                        + " where v.key_id = ? and v.bucket_start >= ? and v.bucket_start < ?"
                        + " order by v.bucket_start")
                .params(keyId, Timestamp.from(range.firstBucket()), Timestamp.from(range.end()))
                .query(VerificationBucket::of)
                .list();
    }

    /** Summed over the organization's keys, or one project's. */
    List<VerificationBucket> ofOrganization(UUID organizationId, @Nullable UUID projectId, VerificationRange range) {
        return jdbc.sql("select v.bucket_start, " + SUMS + " from api_keys k join "
                        + range.granularity().table()
                        + " v on v.key_id = k.id"
                        + " where k.organization_id = ? and (?::uuid is null or k.project_id = ?)"
                        + " and v.bucket_start >= ? and v.bucket_start < ?"
                        + " group by v.bucket_start order by v.bucket_start")
                .params(
                        organizationId,
                        projectId,
                        projectId,
                        Timestamp.from(range.firstBucket()),
                        Timestamp.from(range.end()))
                .query(VerificationBucket::of)
                .list();
    }

    /** A key and its verifies in a range: accepted, and refused for any reason. */
    record KeyTotal(UUID id, String name, UUID projectId, long valid, long refused) {}

    List<KeyTotal> busiest(UUID organizationId, VerificationRange range, int limit) {
        return jdbc.sql("select k.id, k.name, k.project_id, sum(v.valid) as valid, sum(" + REFUSED + ") as refused"
                        + " from api_keys k join " + range.granularity().table() + " v on v.key_id = k.id"
                        + " where k.organization_id = ? and v.bucket_start >= ? and v.bucket_start < ?"
                        + " group by k.id, k.name, k.project_id"
                        + " order by sum(v.valid) + sum(" + REFUSED + ") desc, k.id limit ?")
                .params(organizationId, Timestamp.from(range.firstBucket()), Timestamp.from(range.end()), limit)
                .query((rs, row) -> new KeyTotal(
                        rs.getObject("id", UUID.class),
                        rs.getString("name"),
                        rs.getObject("project_id", UUID.class),
                        rs.getLong("valid"),
                        rs.getLong("refused")))
                .list();
    }
}
