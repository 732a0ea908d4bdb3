package com.kvportal.sandbox.store;

import com.kvportal.sandbox.SandboxDatabase;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import lombok.RequiredArgsConstructor;
import org.springframework.stereotype.Repository;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** The SQL of the sandbox's subscription schedules; their phases are a JSON list. */
@Repository
@RequiredArgsConstructor
public class SandboxSchedules {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final TypeReference<List<StoredSchedule.Phase>> PHASES = new TypeReference<>() {};
    private static final TypeReference<LinkedHashMap<String, String>> METADATA = new TypeReference<>() {};
    private static final StoredTable<StoredSchedule> SCHEDULES =
            new StoredTable<>("select * from sandbox.sandbox_subscription_schedules", SandboxSchedules::row);

    private final SandboxDatabase database;

    public void insert(StoredSchedule s) {
        StoredRows.write(
                database,
                """
                insert into sandbox.sandbox_subscription_schedules (id, customer, subscription, status,
                    end_behavior, phases, released_subscription, released_at, canceled_at, completed_at,
                    metadata, created)
                values (:id, :customer, :subscription, :status, :endBehavior, :phases::jsonb, :releasedSubscription,
                    :releasedAt, :canceledAt, :completedAt, :metadata::jsonb, :created)""",
                s);
    }

    public void update(StoredSchedule s) {
        StoredRows.write(
                database,
                """
                update sandbox.sandbox_subscription_schedules set subscription = :subscription, status = :status,
                    end_behavior = :endBehavior, phases = :phases::jsonb, released_subscription = :releasedSubscription,
                    released_at = :releasedAt, canceled_at = :canceledAt, completed_at = :completedAt,
                    metadata = :metadata::jsonb
                where id = :id""",
                s);
    }

    public Optional<StoredSchedule> schedule(String id) {
        return SCHEDULES.one(database, id);
    }

    public Optional<StoredSchedule> lockSchedule(String id) {
        return SCHEDULES.locked(database, id);
    }

    /** The schedule that governs the subscription (not started or active), if any. */
    public Optional<StoredSchedule> governing(String subscription) {
        return governing(subscription, "");
    }

    /** The schedule that governs the subscription, if any, locked. */
    public Optional<StoredSchedule> lockGoverning(String subscription) {
        return governing(subscription, " for update");
    }

    private Optional<StoredSchedule> governing(String subscription, String lock) {
        return SCHEDULES.single(
                database, "where subscription = ? and status in ('not_started', 'active')" + lock, subscription);
    }

    private static StoredSchedule row(ResultSet rs, int n) throws SQLException {
        return new StoredSchedule(
                rs.getString("id"),
                rs.getString("customer"),
                rs.getString("subscription"),
                rs.getString("status"),
                rs.getString("end_behavior"),
                JSON.readValue(rs.getString("phases"), PHASES),
                rs.getString("released_subscription"),
                rs.getObject("released_at", Long.class),
                rs.getObject("canceled_at", Long.class),
                rs.getObject("completed_at", Long.class),
                JSON.readValue(rs.getString("metadata"), METADATA),
                rs.getLong("created"));
    }
}
