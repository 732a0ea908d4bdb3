package com.kvportal.usage.reporting;

import com.kvportal.usage.reporting.StorageModel.Sample;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of the usage_samples table. */
@Repository
@RequiredArgsConstructor
public class StoredSamples {

    /** What became of one sample of a batch. */
    enum Fate {
        ACCEPTED,
        DUPLICATE,
        PROJECT_NOT_FOUND
    }

    /** A sample's fate; for an accepted one, its organization. */
    record Stored(int index, Fate fate, @Nullable UUID organizationId, long seq) {}

    /** A project's latest sample, what the in-memory standing keeps. */
    public record Latest(UUID projectId, UUID organizationId, Instant at, long seq, long bytes) {

        public boolean isNewerThan(Latest other) {
            int byTime = at.compareTo(other.at);
            return byTime > 0 || (byTime == 0 && seq > other.seq);
        }
    }

    /** Rows committed since a poll's cursor, and the cursor for the next poll. */
    public record Changes(List<Latest> samples, String cursor) {}

    /**
     * One statement for the whole batch: which projects exist, the first sample of each id among them, inserted in
     * id order (two concurrent batches meet their common ids in the same order, so they cannot deadlock) unless the
     * id is known already. Their seq is drawn in batch order (the subquery sorted, and kept apart by offset 0, before
     * nextval runs), so that of two samples of one project and second the later in the batch wins.
     */
    private static final String INGEST =
            """
            with input as (
                select * from unnest(?::int[], ?::text[], ?::uuid[], ?::bigint[], ?::timestamptz[])
                    as s(idx, id, project_id, bytes, at)
            ), known as (
                select i.idx, i.id, i.project_id, p.organization_id, i.bytes, i.at
                from input i join projects p on p.id = i.project_id
            ), firsts as (
                select distinct on (id) * from known order by id, idx
            ), seqs as (
                select idx, nextval(pg_get_serial_sequence('usage_samples', 'seq')) as seq
                from (select idx from firsts order by idx offset 0) ordered
            ), inserted as (
                insert into usage_samples (id, project_id, organization_id, bytes, at, seq)
                select f.id, f.project_id, f.organization_id, f.bytes, f.at, s.seq
                from firsts f join seqs s on s.idx = f.idx order by f.id
                on conflict (id) do nothing
                returning id, organization_id, seq
            )
            select i.idx, k.idx is not null as known, ins.organization_id, ins.seq
            from input i
            left join known k on k.idx = i.idx
            left join firsts f on f.id = i.id
            left join inserted ins on ins.id = i.id and f.idx = i.idx
            order by i.idx""";

    private final JdbcClient jdbc;
    private final JdbcTemplate template;

    /** Stores the samples (index = their position in the report) in one statement; answers each one's fate. */
    List<Stored> ingest(Map<Integer, ReportedSample> samples) {
        if (samples.isEmpty()) {
            return List.of();
        }
        int n = samples.size();
        Integer[] indexes = new Integer[n];
        String[] ids = new String[n];
        UUID[] projects = new UUID[n];
        Long[] bytes = new Long[n];
        Timestamp[] ats = new Timestamp[n];
        int i = 0;
        for (Map.Entry<Integer, ReportedSample> entry : samples.entrySet()) {
            ReportedSample sample = entry.getValue();
            indexes[i] = entry.getKey();
            ids[i] = sample.id();
            projects[i] = sample.projectId();
            bytes[i] = sample.bytes();
            ats[i] = Timestamp.from(sample.at());
            i++;
        }
        return template.execute((Connection connection) -> {
            try (PreparedStatement statement = connection.prepareStatement(INGEST)) {
                statement.setArray(1, connection.createArrayOf("int4", indexes));
                statement.setArray(2, connection.createArrayOf("text", ids));
                statement.setArray(3, connection.createArrayOf("uuid", projects));
                statement.setArray(4, connection.createArrayOf("int8", bytes));
                statement.setArray(5, connection.createArrayOf("timestamptz", ats));
                List<Stored> stored = new ArrayList<>(n);
                try (ResultSet rs = statement.executeQuery()) {
                    while (rs.next()) {
                        UUID organization = rs.getObject("organization_id", UUID.class);
                        Fate fate = !rs.getBoolean("known")
                                ? Fate.PROJECT_NOT_FOUND
                                : organization != null ? Fate.ACCEPTED : Fate.DUPLICATE;
                        stored.add(new Stored(rs.getInt("idx"), fate, organization, rs.getLong("seq")));
                    }
                }
                return stored;
            }
        });
    }

    /**
     * The samples that shape the organization's storage over {@code [from, to)}: each project's latest sample
     * before {@code from} and all of its samples in the interval, per project in time order (ties: arrival order).
     */
    public Map<UUID, List<Sample>> forInterval(UUID organizationId, Instant from, Instant to) {
        Map<UUID, List<Sample>> byProject = new LinkedHashMap<>();
        jdbc.sql(
                        """
                        select project_id, at, bytes from (
                            select b.project_id, b.at, b.seq, b.bytes
                            from projects p cross join lateral (
                                select u.project_id, u.at, u.seq, u.bytes from usage_samples u
                                where u.project_id = p.id and u.at < ?
                                order by u.at desc, u.seq desc limit 1) b
                            where p.organization_id = ?
                            union all
                            select project_id, at, seq, bytes from usage_samples
                            where organization_id = ? and at >= ? and at < ?
                        ) s order by project_id, at, seq""")
                .params(Timestamp.from(from), organizationId, organizationId, Timestamp.from(from), Timestamp.from(to))
                .query((rs, n) -> byProject
                        .computeIfAbsent(rs.getObject("project_id", UUID.class), p -> new ArrayList<>())
                        .add(new Sample(rs.getTimestamp("at").toInstant(), rs.getLong("bytes"))))
                .list();
        return byProject;
    }

    /**
     * The organization's current storage as verify's standing counts it: the sum of its projects' latest samples (by
     * time, then arrival), read from what is committed now.
     */
    public long currentOf(UUID organizationId) {
        return jdbc.sql(
                        """
                        select coalesce(sum(l.bytes), 0)
                        from projects p cross join lateral (
                            select u.bytes from usage_samples u where u.project_id = p.id
                            order by u.at desc, u.seq desc limit 1) l
                        where p.organization_id = ?""")
                .param(organizationId)
                .query(Long.class)
                .single();
    }

    /** A project of the organization and what it stores at an instant (its latest sample at or before it). */
    public record ProjectStorage(UUID projectId, String name, long bytes) {}

    /** Every project of the organization, oldest first, with its storage at the instant. */
    public List<ProjectStorage> projectsAt(UUID organizationId, Instant at) {
        return jdbc.sql(
                        """
                        select p.id, p.name, coalesce(l.bytes, 0) as bytes
                        from projects p left join lateral (
                            select u.bytes from usage_samples u where u.project_id = p.id and u.at <= ?
                            order by u.at desc, u.seq desc limit 1) l on true
                        where p.organization_id = ?
                        order by p.created_at, p.id""")
                .params(Timestamp.from(at), organizationId)
                .query((rs, n) ->
                        new ProjectStorage(rs.getObject("id", UUID.class), rs.getString("name"), rs.getLong("bytes")))
                .list();
    }

    /** Every project's latest sample, and the cursor from which {@link #changesSince} continues. */
    public Changes latestOfEveryProject() {
        return inSnapshot(
                """
                select s.next, l.project_id, l.organization_id, l.at, l.seq, l.bytes
                from (select pg_snapshot_xmin(pg_current_snapshot())::text as next) s
                left join (select distinct on (project_id) project_id, organization_id, at, seq, bytes
                           from usage_samples order by project_id, at desc, seq desc) l on true""",
                null);
    }

    /**
     * The samples committed since the cursor was taken (some may be seen twice), and the next cursor. The cursor is
     * the oldest transaction still running at the snapshot: a row written by any later-committing transaction has a
     * txid at or above it, so no commit is missed, whatever order transactions commit in.
     */
    public Changes changesSince(String cursor) {
        return inSnapshot(
                """
                select s.next, u.project_id, u.organization_id, u.at, u.seq, u.bytes
                from (select pg_snapshot_xmin(pg_current_snapshot())::text as next) s
                left join usage_samples u on u.txid >= ?::xid8
                order by u.project_id, u.at, u.seq""",
                cursor);
    }

    /**
     * Runs one statement that answers the cursor ({@code next}) beside the rows. One statement reads with one
     * snapshot, the one {@code pg_current_snapshot()} describes, so cursor and rows agree without a REPEATABLE READ
     * transaction (seven round trips instead of one, each second on every instance). A row with no project is the
     * cursor alone.
     */
    private Changes inSnapshot(String query, @Nullable String cursor) {
        List<String> next = new ArrayList<>(1);
        List<Latest> rows = new ArrayList<>();
        var statement = jdbc.sql(query);
        if (cursor != null) {
            statement = statement.param(cursor);
        }
        statement.query(rs -> {
            if (next.isEmpty()) {
                next.add(rs.getString("next"));
            }
            UUID projectId = rs.getObject("project_id", UUID.class);
            if (projectId != null) {
                rows.add(new Latest(
                        projectId,
                        rs.getObject("organization_id", UUID.class),
                        rs.getTimestamp("at").toInstant(),
                        rs.getLong("seq"),
                        rs.getLong("bytes")));
            }
        });
        return new Changes(rows, next.get(0));
    }
}
