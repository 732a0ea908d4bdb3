package com.kvportal.apikey.analytics;

import com.kvportal.apikey.analytics.VerificationCounter.Counted;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import lombok.RequiredArgsConstructor;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Writes a flush to PostgreSQL in one transaction: the minute buckets, and their sums added to the hour and day
 * buckets at the same time (the roll-up is continuous: hour and day reads never look at minute rows, and are never
 * behind them). One statement per granularity, its rows passed as arrays ({@code unnest}) in the order of their
 * primary key, so that two instances adding to the same hour lock its rows in the same order (no deadlock).
 */
@Component
@RequiredArgsConstructor
class PostgresVerificationWriter implements VerificationWriter {

    private static final String COLUMNS =
            Stream.of(Outcome.all()).map(Outcome::wire).collect(Collectors.joining(", "));

    private final JdbcTemplate template;
    private final TransactionTemplate transactions;

    /** One row of a granularity's table. */
    private record Row(UUID keyId, Instant bucket) {}

    @Override
    public void write(List<Counted> counted) {
        transactions.executeWithoutResult(status -> {
            for (Granularity granularity : Granularity.values()) {
                upsert(granularity, rows(granularity, counted));
            }
        });
    }

    private static Map<Row, long[]> rows(Granularity granularity, List<Counted> counted) {
        Map<Row, long[]> rows = new TreeMap<>(Comparator.comparing(Row::keyId).thenComparing(Row::bucket));
        for (Counted c : counted) {
            Instant bucket = granularity.bucketOf(Instant.ofEpochSecond(c.minute() * 60));
            long[] sum = rows.computeIfAbsent(new Row(c.keyId(), bucket), r -> new long[c.counts().length]);
            for (int i = 0; i < sum.length; i++) {
                sum[i] += c.counts()[i];
            }
        }
        return rows;
    }

    private void upsert(Granularity granularity, Map<Row, long[]> rows) {
        String table = granularity.table();
        StringBuilder arrays = new StringBuilder("?::uuid[], ?::timestamptz[]");
        StringBuilder added = new StringBuilder();
        for (Outcome outcome : Outcome.all()) {
            arrays.append(", ?::bigint[]");
            added.append(added.isEmpty() ? "" : ", ")
                    .append(outcome.wire())
                    .append(" = t.")
                    .append(outcome.wire())
                    .append(" + excluded.")
                    .append(outcome.wire());
        }
        // the order of unnest is the order of the arrays: the primary key's (rows is sorted)
        String sql = "insert into " + table + " as t (key_id, bucket_start, " + COLUMNS + ")"
                + " select c.* from unnest(" + arrays + ") as c(key_id, bucket_start, " + COLUMNS + ")"
                + " where exists (select 1 from api_keys k where k.id = c.key_id)"
                + " on conflict (key_id, bucket_start) do update set " + added;
        List<UUID> ids = new ArrayList<>(rows.size());
        List<Timestamp> buckets = new ArrayList<>(rows.size());
        List<List<Long>> columns = new ArrayList<>();
        for (int i = 0; i < Outcome.all().length; i++) {
            columns.add(new ArrayList<>(rows.size()));
        }
        rows.forEach((row, counts) -> {
            ids.add(row.keyId());
            buckets.add(Timestamp.from(row.bucket()));
            for (int i = 0; i < counts.length; i++) {
                columns.get(i).add(counts[i]);
            }
        });
        template.update(sql, ps -> {
            Connection connection = ps.getConnection();
            ps.setArray(1, connection.createArrayOf("uuid", ids.toArray()));
            ps.setArray(2, connection.createArrayOf("timestamptz", buckets.toArray()));
            for (int i = 0; i < columns.size(); i++) {
                ps.setArray(3 + i, array(connection, columns.get(i)));
            }
        });
    }

    private static java.sql.Array array(Connection connection, List<Long> values) throws SQLException {
        return connection.createArrayOf("bigint", values.toArray());
    }
}
