package com.kvportal.usage.limits;

import com.kvportal.common.database.Sql;
import com.kvportal.usage.UsageLimits;
import com.kvportal.usage.reporting.StoredSamples;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The organizations' usage limits, one row each (none: the defaults). */
@Repository
@RequiredArgsConstructor
public class StoredLimits {

    /** The limits written since a poll's cursor, and the cursor for the next poll. */
    public record Changes(Map<UUID, UsageLimits> limits, String cursor) {}

    private final JdbcClient jdbc;

    /** The organization's limits, the defaults when it never set any. */
    public UsageLimits of(UUID organizationId) {
        return jdbc.sql(
                        """
                        select alert_thresholds_percent, storage_cap_bytes, overage_cap_cents
                        from usage_limits where organization_id = ?""")
                .param(organizationId)
                .query((rs, n) -> limits(rs))
                .optional()
                .orElse(UsageLimits.DEFAULTS);
    }

    /** Replaces the organization's limits; the row's txid tells every instance's refresh that it changed. */
    void save(UUID organizationId, UsageLimits limits) {
        jdbc.sql(
                        """
                        insert into usage_limits
                            (organization_id, alert_thresholds_percent, storage_cap_bytes, overage_cap_cents)
                        values (?, ?::integer[], ?, ?)
                        on conflict (organization_id) do update set
                            alert_thresholds_percent = excluded.alert_thresholds_percent,
                            storage_cap_bytes = excluded.storage_cap_bytes,
                            overage_cap_cents = excluded.overage_cap_cents,
                            updated_at = now(),
                            txid = pg_current_xact_id()""")
                .params(
                        organizationId,
                        Sql.arrayLiteral(limits.alertThresholdsPercent()),
                        limits.storageCapBytes(),
                        limits.overageCapCents())
                .update();
    }

    /**
     * The limits written since the cursor (all of them for a null cursor), and the next cursor: the oldest transaction
     * still running at the snapshot, read in the same statement (see {@link StoredSamples#changesSince}).
     */
    public Changes changesSince(@Nullable String cursor) {
        Map<UUID, UsageLimits> changed = new HashMap<>();
        String[] next = new String[1];
        var statement = jdbc.sql(
                """
                select s.next, l.organization_id, l.alert_thresholds_percent, l.storage_cap_bytes, l.overage_cap_cents
                from (select pg_snapshot_xmin(pg_current_snapshot())::text as next) s
                left join usage_limits l on (?::xid8 is null or l.txid >= ?::xid8)""");
        statement.params(cursor, cursor).query(rs -> {
            next[0] = rs.getString("next");
            UUID organizationId = rs.getObject("organization_id", UUID.class);
            if (organizationId != null) {
                changed.put(organizationId, limits(rs));
            }
        });
        return new Changes(changed, next[0]);
    }

    private static UsageLimits limits(ResultSet rs) throws SQLException {
        return new UsageLimits(
                integers(rs.getArray("alert_thresholds_percent")),
                rs.getObject("storage_cap_bytes", Long.class),
                rs.getObject("overage_cap_cents", Long.class));
    }

    /** A PostgreSQL integer[] as a list. */
    public static List<Integer> integers(Array array) throws SQLException {
        return List.copyOf(Arrays.asList((Integer[]) array.getArray()));
    }
}
