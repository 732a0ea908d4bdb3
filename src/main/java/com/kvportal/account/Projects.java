package com.kvportal.account;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of projects, always reached through the customer's memberships. */
@Repository
@RequiredArgsConstructor
public class Projects {

    /** The projects of the organizations of the member {@code m}; a where clause on {@code m.customer_id} follows. */
    private static final String IN_REACH =
            """
            select p.id, p.organization_id, p.name, p.created_at
            from memberships m join projects p on p.organization_id = m.organization_id
            """;

    private final JdbcClient jdbc;

    public Project insert(UUID id, UUID organizationId, String name) {
        return jdbc.sql("insert into projects (id, organization_id, name) values (?, ?, ?)"
                        + " returning id, organization_id, name, created_at")
                .params(id, organizationId, name)
                .query(Project.class)
                .single();
    }

    List<Project> ofOrganization(UUID organizationId) {
        return jdbc.sql("select id, organization_id, name, created_at from projects where organization_id = ?"
                        + " order by created_at, id")
                .param(organizationId)
                .query(Project.class)
                .list();
    }

    int countInOrganization(UUID organizationId) {
        return jdbc.sql("select count(*) from projects where organization_id = ?")
                .param(organizationId)
                .query(Integer.class)
                .single();
    }

    /** Every project the customer reaches, organizations in the order joined, projects by creation. */
    public List<Project> ofCustomer(UUID customerId) {
        return jdbc.sql(IN_REACH
                        + "where m.customer_id = ? order by m.created_at, m.organization_id, p.created_at, p.id")
                .param(customerId)
                .query(Project.class)
                .list();
    }

    Optional<Project> findForCustomer(UUID customerId, UUID projectId) {
        return jdbc.sql(IN_REACH + "where p.id = ? and m.customer_id = ?")
                .params(projectId, customerId)
                .query(Project.class)
                .optional();
    }
}
