package com.kvportal.account;

import com.kvportal.security.EmailVerifications;
import java.util.Optional;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of customers, organizations and memberships. */
@Repository
@RequiredArgsConstructor
public class Customers implements EmailVerifications {

    public record Credentials(UUID id, String email, String passwordHash) {}

    private final JdbcClient jdbc;

    public boolean emailExists(String email) {
        return jdbc.sql("select exists (select 1 from customers where lower(email) = lower(?))")
                .param(email)
                .query(Boolean.class)
                .single();
    }

    void insertCustomer(UUID id, String email, String passwordHash) {
        jdbc.sql("insert into customers (id, email, password_hash) values (?, ?, ?)")
                .params(id, email, passwordHash)
                .update();
    }

    public void insertOrganization(UUID id, String name, UUID ownerId) {
        jdbc.sql("insert into organizations (id, name, owner_id) values (?, ?, ?)")
                .params(id, name, ownerId)
                .update();
        jdbc.sql("insert into memberships (organization_id, customer_id, role) values (?, ?, 'owner')")
                .params(id, ownerId)
                .update();
    }

    public Optional<Credentials> findByEmail(String email) {
        return credentials("select id, email, password_hash from customers where lower(email) = lower(?)", email);
    }

    public Optional<String> emailOf(UUID customerId) {
        return jdbc.sql("select email from customers where id = ?")
                .param(customerId)
                .query(String.class)
                .optional();
    }

    Optional<Organization> organization(UUID organizationId) {
        return jdbc.sql(
                        """
                        select o.id, o.name, c.email as owner_email
                        from organizations o join customers c on c.id = o.owner_id
                        where o.id = ?""")
                .param(organizationId)
                .query(Organization.class)
                .optional();
    }

    /** The customer's row, locked until the end of the transaction. */
    public Optional<Credentials> lock(UUID customerId) {
        return credentials("select id, email, password_hash from customers where id = ? for update", customerId);
    }

    /** Whether the customer opened the verification link sent to the current address. */
    @Override
    public boolean emailVerified(UUID customerId) {
        return holds("select email_verified_at is not null from customers where id = ?", customerId);
    }

    public boolean totpEnabled(UUID customerId) {
        return holds("select totp_enabled_at is not null from customers where id = ?", customerId);
    }

    public void markEmailVerified(UUID customerId) {
        jdbc.sql("update customers set email_verified_at = coalesce(email_verified_at, now()) where id = ?")
                .param(customerId)
                .update();
    }

    public void setPasswordHash(UUID customerId, String passwordHash) {
        jdbc.sql("update customers set password_hash = ? where id = ?")
                .params(passwordHash, customerId)
                .update();
    }

    /**
     * The same password hashed anew, unless the hash changed meanwhile (a new password set by a concurrent change
     * stays).
     */
    void replacePasswordHash(UUID customerId, String previousHash, String passwordHash) {
        jdbc.sql("update customers set password_hash = ? where id = ? and password_hash = ?")
                .params(passwordHash, customerId, previousHash)
                .update();
    }

    /** A new address, verified by the link that confirmed it. */
    public void setVerifiedEmail(UUID customerId, String email) {
        jdbc.sql("update customers set email = ?, email_verified_at = now() where id = ?")
                .params(email, customerId)
                .update();
    }

    private Optional<Credentials> credentials(String sql, Object key) {
        return jdbc.sql(sql).param(key).query(Credentials.class).optional();
    }

    /** Whether the customer's row answers true; false for no such customer. */
    private boolean holds(String sql, UUID customerId) {
        return jdbc.sql(sql).param(customerId).query(Boolean.class).optional().orElse(false);
    }
}
