package com.kvportal.account.teams;

import com.kvportal.account.credentials.AccountTokens;
import com.kvportal.security.Role;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The SQL of pending invitations. The link's token is kept only as its SHA-256 digest ({@link AccountTokens}); an
 * invitation is used up by deleting it, in one statement, so two accepts racing with one link cannot both join.
 */
@Repository
@RequiredArgsConstructor
public class Invitations {

    record Invitation(UUID id, String email, Role role, UUID invitedBy, Instant createdAt, Instant expiresAt) {}

    /** A live invitation found by its link's token. */
    public record Pending(UUID id, UUID organizationId, String email, Role role) {}

    /** A new invitation and the raw token of its link, which exists only here. */
    record Issued(Invitation invitation, String token) {}

    private static final String COLUMNS = "id, email, role, invited_by, created_at, expires_at";

    private final JdbcClient jdbc;

    /** Replaces any invitation of the address to the organization (its link stops working) with a new one. */
    Issued issue(UUID organizationId, String email, Role role, UUID invitedBy, Duration lifetime) {
        jdbc.sql("delete from invitations where organization_id = ? and lower(email) = lower(?)")
                .params(organizationId, email)
                .update();
        String token = AccountTokens.newToken();
        Invitation invitation = jdbc.sql(
                        """
                        insert into invitations (id, organization_id, email, role, invited_by, digest, expires_at)
                        values (?, ?, ?, ?, ?, ?, now() + ? * interval '1 second')
                        returning\s"""
                                + COLUMNS)
                .params(
                        UUID.randomUUID(),
                        organizationId,
                        email,
                        role.wire(),
                        invitedBy,
                        AccountTokens.digest(token),
                        lifetime.toSeconds())
                .query(Invitations::invitation)
                .single();
        return new Issued(invitation, token);
    }

    /** The organization's invitations that are still pending (not expired), oldest first. */
    List<Invitation> pending(UUID organizationId) {
        return jdbc.sql("select " + COLUMNS + " from invitations where organization_id = ? and expires_at > now()"
                        + " order by created_at, id")
                .param(organizationId)
                .query(Invitations::invitation)
                .list();
    }

    /** Pending invitations, but not one to {@code exceptEmail} (which a new one replaces). */
    int countPending(UUID organizationId, String exceptEmail) {
        return jdbc.sql(
                        """
                        select count(*) from invitations
                        where organization_id = ? and expires_at > now() and lower(email) <> lower(?)""")
                .params(organizationId, exceptEmail)
                .query(Integer.class)
                .single();
    }

    Optional<Invitation> delete(UUID organizationId, UUID id) {
        return jdbc.sql("delete from invitations where organization_id = ? and id = ? and expires_at > now()"
                        + " returning " + COLUMNS)
                .params(organizationId, id)
                .query(Invitations::invitation)
                .optional();
    }

    void deleteAll(UUID organizationId) {
        jdbc.sql("delete from invitations where organization_id = ?")
                .param(organizationId)
                .update();
    }

    /** Deletes the invitations whose links have expired (a used, replaced or revoked one is gone already). */
    public int deleteExpired() {
        return jdbc.sql("delete from invitations where expires_at <= now()").update();
    }

    /** The live invitation of a link, not used up. */
    Optional<Pending> find(@Nullable String token) {
        if (!AccountTokens.plausible(token)) {
            return Optional.empty();
        }
        return jdbc.sql(
                        """
                        select i.id, i.organization_id, i.email, i.role from invitations i
                        join organizations o on o.id = i.organization_id and o.deleted_at is null
                        where i.digest = ? and i.expires_at > now()""")
                .param(AccountTokens.digest(token))
                .query(Invitations::pendingRow)
                .optional();
    }

    /** Uses the invitation up; false when another request used it first (or it was replaced or revoked). */
    boolean redeem(UUID id) {
        return jdbc.sql("delete from invitations where id = ? and expires_at > now()")
                        .param(id)
                        .update()
                > 0;
    }

    private static Pending pendingRow(ResultSet rs, int row) throws SQLException {
        return new Pending(
                rs.getObject("id", UUID.class),
                rs.getObject("organization_id", UUID.class),
                rs.getString("email"),
                role(rs));
    }

    private static Invitation invitation(ResultSet rs, int row) throws SQLException {
        return new Invitation(
                rs.getObject("id", UUID.class),
                rs.getString("email"),
                role(rs),
                rs.getObject("invited_by", UUID.class),
                rs.getTimestamp("created_at").toInstant(),
                rs.getTimestamp("expires_at").toInstant());
    }

    private static Role role(ResultSet rs) throws SQLException {
        String wire = rs.getString("role");
        return Role.ofWire(wire).orElseThrow(() -> new IllegalStateException("unknown role " + wire));
    }
}
