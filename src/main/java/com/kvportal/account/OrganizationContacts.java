package com.kvportal.account;

import java.util.List;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Who hears about an organization: its owners and billing members about usage and billing, its owners
 * about the organization's integrations. The one place that names them, so that other features (usage
 * alerts, webhooks) need not know how memberships are kept.
 */
@Repository
@RequiredArgsConstructor
public class OrganizationContacts {

    private final JdbcClient jdbc;

    /** The email addresses of the organization's owners and billing members, in address order. */
    public List<String> billing(UUID organizationId) {
        return withRoles(organizationId, List.of("owner", "billing"));
    }

    /** The email addresses of the organization's owners and admins (who manage its keys), in address order. */
    public List<String> keyManagers(UUID organizationId) {
        return withRoles(organizationId, List.of("owner", "admin"));
    }

    /** The email addresses of the organization's owners, in address order. */
    public List<String> owners(UUID organizationId) {
        return withRoles(organizationId, List.of("owner"));
    }

    private List<String> withRoles(UUID organizationId, List<String> roles) {
        return jdbc.sql(
                        """
                        select c.email
                        from memberships m join customers c on c.id = m.customer_id
                        where m.organization_id = :organization and m.role in (:roles)
                        order by lower(c.email)""")
                .param("organization", organizationId)
                .param("roles", roles)
                .query(String.class)
                .list();
    }
}
