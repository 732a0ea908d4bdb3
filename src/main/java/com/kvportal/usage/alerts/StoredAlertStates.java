package com.kvportal.usage.alerts;

import com.kvportal.common.WireName;
import com.kvportal.common.database.Sql;
import com.kvportal.usage.WriteRefusal;
import com.kvportal.usage.limits.StoredLimits;
import java.util.Optional;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of usage_alert_state: each organization's alert state, one row, held while an instance evaluates it. */
@Repository
@RequiredArgsConstructor
public class StoredAlertStates {

    private final JdbcClient jdbc;

    /**
     * The organization's alert state, its row locked until the caller's transaction ends (created first if need be),
     * so that one instance at a time evaluates it and the next one sees what it committed. Empty for an
     * organization that does not exist (any more).
     */
    Optional<AlertState> lock(UUID organizationId) {
        jdbc.sql(
                        """
                        insert into usage_alert_state (organization_id)
                        select id from organizations where id = ?
                        on conflict (organization_id) do nothing""")
                .param(organizationId)
                .update();
        return jdbc.sql(
                        """
                        select crossed_percent, writes_refused from usage_alert_state
                        where organization_id = ? for update""")
                .param(organizationId)
                .query((rs, n) -> {
                    String refused = rs.getString("writes_refused");
                    return new AlertState(
                            StoredLimits.integers(rs.getArray("crossed_percent")),
                            refused == null
                                    ? null
                                    : WireName.of(WriteRefusal.class, refused).orElseThrow());
                })
                .optional();
    }

    void save(UUID organizationId, AlertState state) {
        jdbc.sql(
                        """
                        update usage_alert_state
                        set crossed_percent = ?::integer[], writes_refused = ?, updated_at = now()
                        where organization_id = ?""")
                .params(
                        Sql.arrayLiteral(state.crossedPercent()),
                        state.writesRefused() == null
                                ? null
                                : state.writesRefused().wire(),
                        organizationId)
                .update();
    }
}
