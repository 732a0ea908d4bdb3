package com.kvportal.webhooks;

import com.kvportal.common.database.Sql;
import com.kvportal.common.encryption.EncryptedColumns;
import com.kvportal.common.encryption.SecretBox;
import com.kvportal.common.encryption.SecretColumn;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of webhook endpoints. {@code events} null in the table: every type (shown as {@code ["*"]}). */
@Repository
@RequiredArgsConstructor
public class StoredEndpoints implements EncryptedColumns {

    private static final String COLUMNS = "id, url, events, description, disabled, created_at";

    /**
     * The signing secrets, sealed for their endpoint's row: the current one and the one it replaced share their
     * purpose, so that a rotation moves the current one aside in SQL alone.
     */
    public static final SecretColumn SECRET =
            new SecretColumn("webhook_endpoints", "secret", "webhook_endpoints.secret");

    public static final SecretColumn PREVIOUS_SECRET =
            new SecretColumn("webhook_endpoints", "previous_secret", SECRET.purpose());

    private final JdbcClient jdbc;
    private final SecretBox box;

    @Override
    public List<SecretColumn> encryptedColumns() {
        return List.of(SECRET, PREVIOUS_SECRET);
    }

    /** Serializes the endpoint changes of one organization (the limit of 10 holds under concurrent creates). */
    void lockOrganization(UUID organizationId) {
        jdbc.sql("select pg_advisory_xact_lock(hashtextextended('webhook_endpoints:' || ?::text, 0))")
                .param(organizationId)
                .query()
                .singleValue();
    }

    int count(UUID organizationId) {
        return jdbc.sql("select count(*) from webhook_endpoints where organization_id = ?")
                .param(organizationId)
                .query(Integer.class)
                .single();
    }

    WebhookEndpoint insert(
            UUID id,
            UUID organizationId,
            String url,
            @Nullable List<String> events,
            String description,
            String secret) {
        return jdbc.sql("insert into webhook_endpoints (id, organization_id, url, events, description, secret)"
                        + " values (?, ?, ?, ?::text[], ?, ?) returning " + COLUMNS)
                .params(id, organizationId, url, typesLiteral(events), description, box.seal(secret, SECRET, id))
                .query(StoredEndpoints::endpoint)
                .single();
    }

    List<WebhookEndpoint> list(UUID organizationId) {
        return endpoints("where organization_id = ? order by created_at, id", organizationId)
                .list();
    }

    Optional<WebhookEndpoint> find(UUID organizationId, UUID id) {
        return endpoints("where id = ? and organization_id = ?", id, organizationId)
                .optional();
    }

    Optional<WebhookEndpoint> lock(UUID organizationId, UUID id) {
        return endpoints("where id = ? and organization_id = ? for update", id, organizationId)
                .optional();
    }

    /** The endpoints as the API shows them: {@code select COLUMNS from webhook_endpoints}, then {@code rest}. */
    private JdbcClient.MappedQuerySpec<WebhookEndpoint> endpoints(String rest, Object... params) {
        return jdbc.sql("select " + COLUMNS + " from webhook_endpoints " + rest)
                .params(params)
                .query(StoredEndpoints::endpoint);
    }

    WebhookEndpoint update(UUID id, String url, @Nullable List<String> events, String description, boolean disabled) {
        return jdbc.sql(
                        """
                        update webhook_endpoints set url = ?, events = ?::text[], description = ?, disabled = ?,
                            -- enabled again: its failing starts afresh (the old "disabled" on the right)
                            failing_since = case when disabled and not ? then null else failing_since end
                        where id = ? returning\s"""
                                + COLUMNS)
                .params(url, typesLiteral(events), description, disabled, disabled, id)
                .query(StoredEndpoints::endpoint)
                .single();
    }

    void delete(UUID id) {
        jdbc.sql("delete from webhook_endpoints where id = ?").param(id).update();
    }

    /** The new secret signs from now on, the current one beside it until {@code overlap} has passed. */
    void rotate(UUID id, String secret, Duration overlap) {
        jdbc.sql(
                        """
                        update webhook_endpoints set previous_secret = secret, secret = ?,
                            previous_secret_until = now() + ? * interval '1 millisecond'
                        where id = ?""")
                .params(box.seal(secret, SECRET, id), overlap.toMillis(), id)
                .update();
    }

    /** The subscribed, enabled endpoints of the organization for this type. */
    List<UUID> subscribed(UUID organizationId, String type) {
        return jdbc.sql(
                        """
                        select id from webhook_endpoints
                        where organization_id = ? and not disabled and (events is null or ? = any(events))""")
                .params(organizationId, type)
                .query(UUID.class)
                .list();
    }

    /**
     * Locks the endpoint for an attempt's outcome, before its delivery, as a deletion locks it before deleting its
     * deliveries: in the other order the two deadlock. False when it was deleted, its deliveries with it. The lock
     * is the one the outcome's update of the endpoint takes anyway ({@code for no key update}).
     */
    public boolean lockForOutcome(UUID id) {
        return jdbc.sql("select 1 from webhook_endpoints where id = ? for no key update")
                .param(id)
                .query(Integer.class)
                .optional()
                .isPresent();
    }

    /** A failed attempt: when the endpoint started failing everything (now, if it was not failing). */
    public Instant failed(UUID id) {
        return jdbc.sql("update webhook_endpoints set failing_since = coalesce(failing_since, now()) where id = ?"
                        + " returning failing_since")
                .param(id)
                .query(Instant.class)
                .single();
    }

    public void delivered(UUID id) {
        jdbc.sql("update webhook_endpoints set failing_since = null where id = ? and failing_since is not null")
                .param(id)
                .update();
    }

    /** Disables an endpoint failing since before {@code since}: its organization and url, or empty if not (now). */
    public record Disabled(UUID organizationId, String url) {}

    public Optional<Disabled> disableIfFailingSince(UUID id, Instant since) {
        return jdbc.sql(
                        """
                        update webhook_endpoints set disabled = true
                        where id = ? and not disabled and failing_since <= ?
                        returning organization_id, url""")
                .params(id, Timestamp.from(since))
                .query((rs, n) -> new Disabled(rs.getObject("organization_id", UUID.class), rs.getString("url")))
                .optional();
    }

    private static WebhookEndpoint endpoint(ResultSet rs, int row) throws SQLException {
        Array events = rs.getArray("events");
        return new WebhookEndpoint(
                rs.getObject("id", UUID.class),
                rs.getString("url"),
                events == null ? List.of(EventTypes.ALL) : Arrays.asList((String[]) events.getArray()),
                rs.getString("description"),
                rs.getBoolean("disabled"),
                rs.getTimestamp("created_at").toInstant());
    }

    /** The types, or null for every type. */
    private static @Nullable String typesLiteral(@Nullable List<String> types) {
        return types == null ? null : Sql.arrayLiteral(types);
    }
}
