package com.kvportal.audit;

import com.kvportal.audit.AuditEvent.Party;
import com.kvportal.common.web.PageCursor;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** The SQL of the audit_events table. */
@Repository
@RequiredArgsConstructor
class StoredAuditEvents {

    private static final TypeReference<Map<String, Object>> DETAILS = new TypeReference<>() {};

    private final JdbcClient jdbc;
    private final JsonMapper json;

    void insert(UUID organizationId, AuditEvent event) {
        Party target = event.target();
        jdbc.sql(
                        """
                        insert into audit_events (id, organization_id, occurred_at, action, actor_type, actor_id,
                            actor_label, target_type, target_id, target_label, project_id, ip, user_agent, details)
                        values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb)""")
                .params(
                        event.id(),
                        organizationId,
                        Timestamp.from(event.occurredAt()),
                        event.action(),
                        event.actor().type(),
                        event.actor().id(),
                        event.actor().label(),
                        target == null ? null : target.type(),
                        target == null ? null : target.id(),
                        target == null ? null : target.label(),
                        event.projectId(),
                        event.ip(),
                        event.userAgent(),
                        json.writeValueAsString(event.details()))
                .update();
    }

    /** Up to {@code limit} events of the organization strictly older than the position, newest first. */
    List<AuditEvent> page(UUID organizationId, @Nullable PageCursor after, int limit) {
        String older = after == null ? "" : " and (occurred_at, id) < (?, ?)";
        var statement = jdbc.sql("select * from audit_events where organization_id = ?" + older
                        + " order by occurred_at desc, id desc limit ?")
                .param(organizationId);
        if (after != null) {
            statement = statement.param(Timestamp.from(after.at())).param(after.id());
        }
        return statement.param(limit).query(this::event).list();
    }

    /** @return how many events were deleted */
    int deleteOlderThan(Instant cutoff) {
        return jdbc.sql("delete from audit_events where occurred_at < ?")
                .param(Timestamp.from(cutoff))
                .update();
    }

    private AuditEvent event(ResultSet rs, int row) throws SQLException {
        String targetType = rs.getString("target_type");
        return new AuditEvent(
                rs.getObject("id", UUID.class),
                rs.getTimestamp("occurred_at").toInstant(),
                rs.getString("action"),
                new Party(rs.getString("actor_type"), rs.getString("actor_id"), rs.getString("actor_label")),
                targetType == null
                        ? null
                        : new Party(targetType, rs.getString("target_id"), rs.getString("target_label")),
                rs.getObject("project_id", UUID.class),
                rs.getString("ip"),
                rs.getString("user_agent"),
                json.readValue(rs.getString("details"), DETAILS));
    }
}
