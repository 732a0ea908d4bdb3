package com.kvportal.webhooks.delivery;

import com.kvportal.common.database.Sql;
import com.kvportal.common.encryption.SecretBox;
import com.kvportal.common.web.PageCursor;
import com.kvportal.webhooks.StoredEndpoints;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of the events and their deliveries: the outbox. */
@Repository
@RequiredArgsConstructor
public class StoredDeliveries {

    private static final String COLUMNS =
            """
            d.id, d.event_id, e.type as event_type, d.status, d.attempts, d.response_status, d.duration_ms,
            d.last_error,             d.last_attempt_at, case when d.status = 'pending' then greatest(d.next_attempt_at, d.leased_until)
                                    when d.retry_requested_at is not null then d.retry_requested_at end
                               as next_attempt_at, d.created_at""";

    private final JdbcClient jdbc;
    private final SecretBox box;

    public void insertEvent(String id, UUID organizationId, String type, String body, Instant createdAt) {
        jdbc.sql("insert into webhook_events (id, organization_id, type, body, created_at) values (?, ?, ?, ?, ?)")
                .params(id, organizationId, type, body, Timestamp.from(createdAt))
                .update();
    }

    public UUID insertDelivery(UUID endpointId, String eventId) {
        UUID id = UUID.randomUUID();
        jdbc.sql("insert into webhook_deliveries (id, endpoint_id, event_id, next_attempt_at) values (?, ?, ?, now())")
                .params(id, endpointId, eventId)
                .update();
        return id;
    }

    /** An endpoint's deliveries, newest first, after the cursor's position. */
    public List<Delivery> page(UUID endpointId, @Nullable PageCursor after, int limit) {
        String where = after == null ? "" : " and (d.created_at, d.id) < (?, ?)";
        var statement = jdbc.sql("select " + COLUMNS + " from webhook_deliveries d join webhook_events e on e.id ="
                        + " d.event_id where d.endpoint_id = ?" + where
                        + " order by d.created_at desc, d.id desc limit ?")
                .param(endpointId);
        if (after != null) {
            statement = statement.param(Timestamp.from(after.at())).param(after.id());
        }
        return statement.param(limit).query(StoredDeliveries::delivery).list();
    }

    /**
     * Asks for one more attempt of the endpoint's delivery, whatever its status: its event, or empty if none. The
     * attempt waits its turn from now (asking again keeps the first turn).
     */
    public Optional<String> requestRetry(UUID endpointId, UUID deliveryId) {
        return jdbc.sql("update webhook_deliveries set retry_requested_at = coalesce(retry_requested_at, now())"
                        + " where id = ? and endpoint_id = ? returning event_id")
                .params(deliveryId, endpointId)
                .query(String.class)
                .optional();
    }

    /** A delivery claimed for an attempt, with what the attempt needs. */
    public record Claimed(
            UUID id,
            UUID endpointId,
            String eventId,
            String url,
            String body,
            List<String> secrets,
            int attempt,
            int scheduledAttempts,
            boolean manual) {}

    /**
     * Claims due deliveries of enabled endpoints for an attempt each, in a transaction of its own, fairly across
     * organizations: an organization never has more than {@code perOrganization} attempts in flight (leased) across
     * the instances, and each claim serves the organizations with the fewest in flight first, each its oldest due
     * delivery (by when it became due; a retry asked for, by when it was asked for), taking the organization's
     * endpoints in turn. Claims are serialized across instances (a transaction-scoped advisory lock, held for the one
     * statement), so the counts are exact. Each claimed delivery is leased (not due again until the lease ends, i.e.
     * when this instance died mid-attempt). An attempt due by the schedule counts on it; a retry asked for does not.
     */
    public List<Claimed> claimDue(int limit, int perOrganization, Duration lease) {
        jdbc.sql("select pg_advisory_xact_lock(hashtextextended('webhook_deliveries:claim', 0))")
                .query((rs, n) -> 1)
                .single();
        return jdbc.sql(
                        """
                        with in_flight as (
                            select d.endpoint_id, p.organization_id, count(*) as n
                            from webhook_deliveries d join webhook_endpoints p on p.id = d.endpoint_id
                            where d.leased_until > now()
                            group by d.endpoint_id, p.organization_id
                        ), organization_in_flight as (
                            select organization_id, sum(n) as n from in_flight group by organization_id
                        ), due as (
                            -- each enabled endpoint's oldest due deliveries, at most what its organization may start,
                            -- numbered after the endpoint's attempts in flight
                            select c.id, c.due_at, c.scheduled, p.organization_id,
                                   coalesce(f.n, 0) + row_number() over (partition by p.id order by c.due_at, c.id)
                                       as endpoint_turn
                            from webhook_endpoints p cross join lateral (
                                (select d.id, d.next_attempt_at as due_at, true as scheduled
                                 from webhook_deliveries d
                                 where d.endpoint_id = p.id and d.status = 'pending' and d.next_attempt_at <= now()
                                   and (d.leased_until is null or d.leased_until < now())
                                 order by d.next_attempt_at limit :perOrganization)
                                union all
                                (select d.id, d.retry_requested_at, false
                                 from webhook_deliveries d
                                 where d.endpoint_id = p.id and d.retry_requested_at is not null
                                   and not (d.status = 'pending' and d.next_attempt_at <= now())
                                   and (d.leased_until is null or d.leased_until < now())
                                 order by d.retry_requested_at limit :perOrganization)
                            ) c
                            left join in_flight f on f.endpoint_id = p.id
                            where not p.disabled
                        ), turns as (
                            -- the organization's endpoints in turn; its attempts in flight have had their turns
                            select due.*, coalesce(f.n, 0) + row_number() over (
                                       partition by due.organization_id order by due.endpoint_turn, due.due_at, due.id)
                                   as turn
                            from due left join organization_in_flight f on f.organization_id = due.organization_id
                        ), picked as (
                            select id, scheduled from turns
                            where turn <= :perOrganization
                            order by turn, due_at, id
                            limit :limit
                        ), claimed as (
                            update webhook_deliveries d
                            set attempts = d.attempts + 1, retry_requested_at = null,
                                scheduled_attempts = d.scheduled_attempts
                                    + case when picked.scheduled then 1 else 0 end,
                                last_attempt_at = now(), leased_until = now() + :lease * interval '1 millisecond'
                            from picked where d.id = picked.id
                            returning d.id, d.endpoint_id, d.event_id, d.attempts, d.scheduled_attempts,
                                      not picked.scheduled as manual
                        )
                        select c.*, p.url, e.body, p.secret,
                               case when p.previous_secret_until > now() then p.previous_secret end as previous_secret
                        from claimed c join webhook_endpoints p on p.id = c.endpoint_id
                                       join webhook_events e on e.id = c.event_id""")
                .param("limit", limit)
                .param("perOrganization", perOrganization)
                .param("lease", lease.toMillis())
                .query((rs, n) -> {
                    UUID endpointId = rs.getObject("endpoint_id", UUID.class);
                    String previous = rs.getString("previous_secret");
                    String secret = box.open(rs.getString("secret"), StoredEndpoints.SECRET, endpointId);
                    return new Claimed(
                            rs.getObject("id", UUID.class),
                            endpointId,
                            rs.getString("event_id"),
                            rs.getString("url"),
                            rs.getString("body"),
                            previous == null
                                    ? List.of(secret)
                                    : List.of(secret, box.open(previous, StoredEndpoints.PREVIOUS_SECRET, endpointId)),
                            rs.getInt("attempts"),
                            rs.getInt("scheduled_attempts"),
                            rs.getBoolean("manual"));
                })
                .list();
    }

    /**
     * Records an attempt's outcome, unless the delivery has been claimed again since (its lease ran out): false then.
     *
     * @param status the status it takes; null: it keeps its status (a retry asked for that failed)
     * @param error why no answer came; null when one did (a delivered attempt clears the last one's)
     * @param next when the schedule's next attempt is due (pending), else null
     * @param keepSchedule true: {@code next} is ignored, the schedule stays as it was
     */
    boolean recordAttempt(
            UUID id,
            int attempt,
            @Nullable String status,
            @Nullable Integer responseStatus,
            long durationMs,
            @Nullable DeliveryError error,
            @Nullable Instant next,
            boolean keepSchedule) {
        return jdbc.sql(
                                """
                        update webhook_deliveries set status = coalesce(?, status), response_status = ?, duration_ms = ?,
                            last_error = ?, next_attempt_at = case when ? then next_attempt_at else ? end, leased_until = null
                        where id = ? and attempts = ?""")
                        .params(
                                status,
                                responseStatus,
                                (int) Math.min(Integer.MAX_VALUE, durationMs),
                                error == null ? null : error.code(),
                                keepSchedule,
                                Sql.timestamp(next),
                                id,
                                attempt)
                        .update()
                == 1;
    }

    private static Delivery delivery(ResultSet rs, int row) throws SQLException {
        return new Delivery(
                rs.getObject("id", UUID.class),
                rs.getString("event_id"),
                rs.getString("event_type"),
                rs.getString("status"),
                rs.getInt("attempts"),
                (Integer) rs.getObject("response_status"),
                (Integer) rs.getObject("duration_ms"),
                rs.getString("last_error"),
                Sql.nullableInstant(rs, "last_attempt_at"),
                Sql.nullableInstant(rs, "next_attempt_at"),
                Sql.instant(rs, "created_at"));
    }
}
