package com.kvportal.account;

import java.util.List;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Who hears about an organization's usage and billing (CONTRACT 14: the owners and billing members): the one place
 * that names them, so that other features (usage alerts) need not know how memberships are kept.
 */
@Repository
@RequiredArgsConstructor
public class BillingContacts {

    private final JdbcClient jdbc;

    /** The email addresses of the organization's owners and billing members, in address order
     * (a customer is a member once). */
    public List<String> of(UUID organizationId) {
        return jdbc.sql(
                        """
                        select c.email
                        from memberships m join customers c on c.id = m.customer_id
                        where m.organization_id = ? and m.role in ('owner', 'billing')
                        order by lower(c.email)""")
                .param(organizationId)
                .query(String.class)
                .list();
    }
}
