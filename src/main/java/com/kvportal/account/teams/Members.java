package com.kvportal.account.teams;

import com.kvportal.account.Projects;
import com.kvportal.security.Caller;
import com.kvportal.security.Memberships;
import com.kvportal.security.Role;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of memberships: who belongs to which organization, with which role. */
@Repository
@RequiredArgsConstructor
public class Members implements Memberships {

    /** A member as the members list shows it. */
    record Member(UUID customerId, String email, Role role, Instant joinedAt) {}

    /** An organization the customer belongs to, with the customer's role there. */
    public record Belonging(UUID id, String name, Role role) {}

    /** A live organization, locked until the end of the transaction. */
    record LockedOrganization(UUID id, String name) {}

    /** The columns {@link #member} reads; a where clause follows. */
    private static final String MEMBERS =
            """
            select m.customer_id, c.email, m.role, m.created_at
            from memberships m join customers c on c.id = m.customer_id
            """;

    private final JdbcClient jdbc;
    private final Projects projects;

    @Override
    @SuppressWarnings("NullAway")
    public Caller current(Caller caller) {
        if (caller.viaApiKey()
                || (caller.organizationId() != null
                        && roleOf(caller.customerId(), caller.organizationId()).isPresent())) {
            return caller;
        }
        return projects.ofCustomer(caller.customerId()).stream()
                .findFirst()
                .map(first -> Caller.ofSession(caller.customerId(), first.organizationId(), first.id()))
                .orElseGet(() -> Caller.ofSession(caller.customerId(), null, null));
    }

    /** One indexed read, made on every portal request that needs a membership. */
    @Override
    public Optional<Role> roleOf(UUID customerId, UUID organizationId) {
        return jdbc.sql("select role from memberships where customer_id = ? and organization_id = ?")
                .params(customerId, organizationId)
                .query((rs, n) -> role(rs))
                .optional();
    }

    /**
     * Locks the organization's row: every change of its memberships and invitations takes this lock first, so that
     * the rules that count (the last owner, the member limit) hold under concurrent requests. Empty once deleted.
     * {@code for no key update}, not {@code for update}: rows that merely refer to the organization (a foreign key's
     * check takes a key-share lock) are still written meanwhile, so a webhook that holds the billing account and
     * writes such a row never deadlocks with a deletion waiting for that billing account.
     */
    public Optional<LockedOrganization> lockOrganization(UUID organizationId) {
        return jdbc.sql("select id, name from organizations where id = ? and deleted_at is null for no key update")
                .param(organizationId)
                .query(LockedOrganization.class)
                .optional();
    }

    List<Member> list(UUID organizationId) {
        return members("where m.organization_id = ? order by m.created_at, m.customer_id", organizationId)
                .list();
    }

    Optional<Member> find(UUID organizationId, UUID customerId) {
        return members("where m.organization_id = ? and m.customer_id = ?", organizationId, customerId)
                .optional();
    }

    boolean isMemberByEmail(UUID organizationId, String email) {
        return jdbc.sql(
                        """
                        select exists (select 1 from memberships m join customers c on c.id = m.customer_id
                                       where m.organization_id = ? and lower(c.email) = lower(?))""")
                .params(organizationId, email)
                .query(Boolean.class)
                .single();
    }

    /** The organizations of the customer, in the order joined. */
    public List<Belonging> organizationsOf(UUID customerId) {
        return jdbc.sql(
                        """
                        select o.id, o.name, m.role
                        from memberships m join organizations o on o.id = m.organization_id
                        where m.customer_id = ?
                        order by m.created_at, o.id""")
                .param(customerId)
                .query((rs, n) -> new Belonging(rs.getObject("id", UUID.class), rs.getString("name"), role(rs)))
                .list();
    }

    int count(UUID organizationId) {
        return count("select count(*) from memberships where organization_id = ?", organizationId);
    }

    /** The organizations the customer owns (a deleted one has no members left). */
    int countOwned(UUID customerId) {
        return count("select count(*) from memberships where customer_id = ? and role = 'owner'", customerId);
    }

    int countOwners(UUID organizationId) {
        return count("select count(*) from memberships where organization_id = ? and role = 'owner'", organizationId);
    }

    /** Adds the member; false when the customer is a member already (the role stays as it is). */
    boolean insert(UUID organizationId, UUID customerId, Role role) {
        return jdbc.sql(
                                """
                        insert into memberships (organization_id, customer_id, role) values (?, ?, ?)
                        on conflict do nothing""")
                        .params(organizationId, customerId, role.wire())
                        .update()
                > 0;
    }

    void setRole(UUID organizationId, UUID customerId, Role role) {
        jdbc.sql("update memberships set role = ? where organization_id = ? and customer_id = ?")
                .params(role.wire(), organizationId, customerId)
                .update();
    }

    void delete(UUID organizationId, UUID customerId) {
        jdbc.sql("delete from memberships where organization_id = ? and customer_id = ?")
                .params(organizationId, customerId)
                .update();
    }

    void deleteAll(UUID organizationId) {
        jdbc.sql("delete from memberships where organization_id = ?")
                .param(organizationId)
                .update();
    }

    /** The customer who stands for the organization at the payment provider (its owner's email). */
    void setBillingOwner(UUID organizationId, UUID customerId) {
        jdbc.sql("update organizations set owner_id = ? where id = ?")
                .params(customerId, organizationId)
                .update();
    }

    /**
     * After an owner was demoted or left: the customer standing for the organization at the payment provider is an
     * owner again (the longest-standing one), never a former one.
     */
    void keepBillingOwnerAnOwner(UUID organizationId) {
        jdbc.sql(
                        """
                        update organizations o set owner_id = (
                            select m.customer_id from memberships m
                            where m.organization_id = o.id and m.role = 'owner'
                            order by m.created_at, m.customer_id limit 1)
                        where o.id = ? and not exists (
                            select 1 from memberships m
                            where m.organization_id = o.id and m.customer_id = o.owner_id and m.role = 'owner')""")
                .param(organizationId)
                .update();
    }

    void markDeleted(UUID organizationId) {
        jdbc.sql("update organizations set deleted_at = now() where id = ?")
                .param(organizationId)
                .update();
    }

    private int count(String sql, UUID id) {
        return jdbc.sql(sql).param(id).query(Integer.class).single();
    }

    /** The members, with their address, that the where clause picks. */
    private JdbcClient.MappedQuerySpec<Member> members(String where, Object... params) {
        return jdbc.sql(MEMBERS + where).params(params).query(Members::member);
    }

    private static Member member(ResultSet rs, int row) throws SQLException {
        return new Member(
                rs.getObject("customer_id", UUID.class),
                rs.getString("email"),
                role(rs),
                rs.getTimestamp("created_at").toInstant());
    }

    private static Role role(ResultSet rs) throws SQLException {
        String wire = rs.getString("role");
        return Role.ofWire(wire).orElseThrow(() -> new IllegalStateException("unknown role " + wire));
    }
}
