package com.kvportal.apikey;

import com.kvportal.apikey.fields.KeyFields;
import com.kvportal.apikey.fields.KeyShape;
import com.kvportal.apikey.fields.KeyShapes;
import com.kvportal.apikey.limits.LimitColumns;
import com.kvportal.common.database.Sql;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import lombok.RequiredArgsConstructor;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of the api_keys table. */
@Repository
@RequiredArgsConstructor
public class StoredApiKeys {

    private static final String LIST_COLUMNS =
            "id, project_id, name, permissions, expires_at, last_used_at, created_at, customer_id, " + KeyShapes.COLUMNS
                    + LimitColumns.SELECT;

    private final JdbcClient jdbc;
    private final JdbcTemplate template;

    /** The hot path of verify: one lookup through the unique digest index. */
    Optional<StoredKey> findByDigest(KeyDigest digest) {
        return jdbc.sql(
                        """
                        select id, customer_id, project_id, organization_id, permissions, expires_at, revoked_at,
                        """
                                + KeyShapes.COLUMNS + LimitColumns.SELECT + " from api_keys where digest = ?")
                .param(digest.bytes())
                .query((rs, n) -> storedKey(rs))
                .optional();
    }

    private static StoredKey storedKey(ResultSet rs) throws SQLException {
        return StoredKey.of(
                rs.getObject("id", UUID.class),
                rs.getObject("customer_id", UUID.class),
                rs.getObject("project_id", UUID.class),
                rs.getObject("organization_id", UUID.class),
                strings(rs.getArray("permissions")),
                Sql.instant(rs, "expires_at"),
                Sql.nullableInstant(rs, "revoked_at"),
                KeyShapes.read(rs),
                LimitColumns.hot(rs));
    }

    /** Up to {@code limit} unrevoked keys whose digest sorts after {@code after}, in digest order (cache preload). */
    public Map<KeyDigest, StoredKey> unrevokedAfter(byte[] after, int limit) {
        Map<KeyDigest, StoredKey> rows = new LinkedHashMap<>();
        jdbc.sql(
                        """
                        select digest, id, customer_id, project_id, organization_id, permissions, expires_at, revoked_at,
                        """
                                + KeyShapes.COLUMNS
                                + LimitColumns.SELECT
                                + " from api_keys where digest > ? and revoked_at is null order by digest limit ?")
                .params(after, limit)
                .query(rs -> {
                    rows.put(KeyDigest.of(rs.getBytes("digest")), storedKey(rs));
                });
        return rows;
    }

    /** Serializes key creation per project, so that concurrent creates cannot pass the limit together. */
    void lockProject(UUID projectId) {
        jdbc.sql("select pg_advisory_xact_lock(hashtextextended(?, 0))")
                .param(projectId.toString())
                .query((rs, n) -> 1)
                .single();
    }

    int countLive(UUID projectId) {
        return jdbc.sql("select count(*) from api_keys where project_id = ? and revoked_at is null")
                .param(projectId)
                .query(Integer.class)
                .single();
    }

    ApiKey insert(
            UUID id,
            UUID projectId,
            UUID organizationId,
            UUID customerId,
            String name,
            KeyDigest digest,
            List<String> permissions,
            Instant expiresAt,
            KeyShape shape) {
        return jdbc.sql("insert into api_keys (id, project_id, organization_id, customer_id, name, digest, permissions,"
                        + " expires_at, metadata, external_id, enabled, allowed_ips)"
                        + " values (?, ?, ?, ?, ?, ?, ?::text[], ?, ?::jsonb, ?, ?, ?::text[]) returning "
                        + LIST_COLUMNS)
                .params(
                        id,
                        projectId,
                        organizationId,
                        customerId,
                        name,
                        digest.bytes(),
                        Sql.arrayLiteral(permissions),
                        Timestamp.from(expiresAt),
                        KeyFields.json(shape.metadata()),
                        shape.externalId(),
                        shape.enabled(),
                        KeyShapes.allowedIpsLiteral(shape))
                .query(StoredApiKeys::listItem)
                .single();
    }

    List<ApiKey> listLive(UUID projectId) {
        return listItems("where project_id = ? and revoked_at is null order by created_at desc, id", projectId)
                .list();
    }

    /** The project's unrevoked keys with this external id, newest first. */
    List<ApiKey> listLiveWithExternalId(UUID projectId, String externalId) {
        return listItems(
                        "where project_id = ? and external_id = ? and revoked_at is null order by created_at desc, id",
                        projectId,
                        externalId)
                .list();
    }

    /** A key as the list shows it, revoked or not. */
    Optional<ApiKey> find(UUID keyId) {
        return listItems("where id = ?", keyId).optional();
    }

    /** The keys as the list shows them: {@code select LIST_COLUMNS from api_keys}, then {@code rest}. */
    private JdbcClient.MappedQuerySpec<ApiKey> listItems(String rest, Object... params) {
        return jdbc.sql("select " + LIST_COLUMNS + " from api_keys " + rest)
                .params(params)
                .query(StoredApiKeys::listItem);
    }

    /** An unrevoked key that expires within a notice's lead and has not had that notice yet. */
    public record Expiring(ApiKey key, UUID organizationId) {}

    /**
     * Claims the keys that expire after {@code from} and within {@code lead} from now and have not had the notice
     * of {@code days}: each is marked in the caller's transaction, so that it is noticed once, by one instance.
     */
    public List<Expiring> claimExpiring(int days, java.time.Duration from, java.time.Duration lead, int limit) {
        return jdbc.sql(
                        """
                        with due as (
                            select k.id from api_keys k
                            where k.revoked_at is null and k.expires_at > now() + :from * interval '1 second'
                              and k.expires_at <= now() + :lead * interval '1 second'
                              and not exists (select 1 from api_key_expiry_notices n
                                              where n.key_id = k.id and n.days_before = :days)
                            order by k.expires_at
                            limit :limit
                        ), marked as (
                            insert into api_key_expiry_notices (key_id, days_before)
                            select id, :days from due
                            on conflict do nothing
                            returning key_id
                        )
                        """
                                + "select "
                                + LIST_COLUMNS
                                + ", organization_id from api_keys where id in (select key_id from marked)")
                .param("from", from.toSeconds())
                .param("lead", lead.toSeconds())
                .param("days", days)
                .param("limit", limit)
                .query((rs, n) -> new Expiring(listItem(rs, n), rs.getObject("organization_id", UUID.class)))
                .list();
    }

    /** A key of the project, locked until the end of the transaction, and whether it is revoked. */
    record Locked(ApiKey key, boolean revoked) {}

    Optional<Locked> lockInProject(UUID projectId, UUID keyId) {
        return jdbc.sql("select " + LIST_COLUMNS + ", revoked_at is not null as revoked"
                        + " from api_keys where id = ? and project_id = ? for update")
                .params(keyId, projectId)
                .query((rs, n) -> new Locked(listItem(rs, n), rs.getBoolean("revoked")))
                .optional();
    }

    /** Every live key of the organization's projects, locked until the end of the transaction. */
    List<ApiKey> lockLiveInOrganization(UUID organizationId) {
        return listItems("where organization_id = ? and revoked_at is null order by id for update", organizationId)
                .list();
    }

    /** The key with this digest, locked until the end of the transaction, with its organization. */
    public record Found(ApiKey key, UUID organizationId, boolean revoked) {}

    /** A key as the list shows it (revoked or not), with its organization. */
    public Optional<Found> findWithOrganization(UUID keyId) {
        return jdbc.sql("select " + LIST_COLUMNS + ", organization_id, revoked_at is not null as revoked"
                        + " from api_keys where id = ?")
                .param(keyId)
                .query((rs, n) -> new Found(
                        listItem(rs, n), rs.getObject("organization_id", UUID.class), rs.getBoolean("revoked")))
                .optional();
    }

    Optional<Found> lockByDigest(KeyDigest digest) {
        return jdbc.sql("select " + LIST_COLUMNS + ", organization_id, revoked_at is not null as revoked"
                        + " from api_keys where digest = ? for update")
                .param(digest.bytes())
                .query((rs, n) -> new Found(
                        listItem(rs, n), rs.getObject("organization_id", UUID.class), rs.getBoolean("revoked")))
                .optional();
    }

    ApiKey update(UUID keyId, String name, List<String> permissions, Instant expiresAt, KeyShape shape) {
        return jdbc.sql("update api_keys set name = ?, permissions = ?::text[], expires_at = ?, metadata = ?::jsonb,"
                        + " external_id = ?, enabled = ?, allowed_ips = ?::text[] where id = ? returning "
                        + LIST_COLUMNS)
                .params(
                        name,
                        Sql.arrayLiteral(permissions),
                        Timestamp.from(expiresAt),
                        KeyFields.json(shape.metadata()),
                        shape.externalId(),
                        shape.enabled(),
                        KeyShapes.allowedIpsLiteral(shape),
                        keyId)
                .query(StoredApiKeys::listItem)
                .single();
    }

    void revoke(UUID keyId) {
        jdbc.sql("update api_keys set revoked_at = coalesce(revoked_at, now()) where id = ?")
                .param(keyId)
                .update();
    }

    /** Writes the buffered last-use times in one batch; a time never moves backwards. */
    public void recordLastUse(Map<UUID, Instant> lastUse) {
        // in the ids' order, so that two instances writing the same keys lock their rows in the same order
        List<Object[]> rows = lastUse.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(e -> new Object[] {Timestamp.from(e.getValue()), e.getKey(), Timestamp.from(e.getValue())})
                .toList();
        template.batchUpdate(
                "update api_keys set last_used_at = ? where id = ? and (last_used_at is null or last_used_at < ?)",
                rows);
    }

    private static ApiKey listItem(ResultSet rs, int row) throws SQLException {
        return ApiKey.of(
                rs.getObject("id", UUID.class),
                rs.getObject("project_id", UUID.class),
                rs.getString("name"),
                strings(rs.getArray("permissions")),
                Sql.instant(rs, "expires_at"),
                Sql.nullableInstant(rs, "last_used_at"),
                Sql.instant(rs, "created_at"),
                rs.getObject("customer_id", UUID.class),
                KeyShapes.read(rs),
                LimitColumns.ratelimits(rs),
                LimitColumns.view(rs, Instant.now()));
    }

    /**
     * One shared immutable list per combination of permissions (a closed set of words): a million cached keys
     * hold a handful of lists, not a million.
     */
    private static List<String> strings(Array array) throws SQLException {
        List<String> permissions = List.of((String[]) array.getArray());
        return PERMISSION_LISTS.computeIfAbsent(permissions, p -> p);
    }

    private static final ConcurrentHashMap<List<String>, List<String>> PERMISSION_LISTS = new ConcurrentHashMap<>();
}
