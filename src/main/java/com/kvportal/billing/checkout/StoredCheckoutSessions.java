package com.kvportal.billing.checkout;

import com.kvportal.common.WireName;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The SQL of the checkout_sessions table: the provider's hosted checkout sessions this service started, open until
 * they are settled (complete, or expired).
 */
@Repository
@RequiredArgsConstructor
class StoredCheckoutSessions {

    /** Where a session of ours stands. */
    enum Status implements WireName {
        /** May still be paid: the success callback asks the provider about it. */
        OPEN,
        /** Paid, and (as far as the service knows) recorded. */
        COMPLETE,
        /** Can no longer be paid. */
        EXPIRED
    }

    private final JdbcClient jdbc;

    void insert(String id, UUID organizationId, UUID customerId) {
        jdbc.sql("insert into checkout_sessions (id, organization_id, customer_id, status) values (?, ?, ?, 'open')")
                .params(id, organizationId, customerId)
                .update();
    }

    /** The status of a session of ours; empty for a session the service did not start. */
    Optional<Status> status(String id) {
        return jdbc.sql("select status from checkout_sessions where id = ?")
                .param(id)
                .query(String.class)
                .optional()
                .map(wire -> WireName.of(Status.class, wire).orElseThrow());
    }

    /** The organization's open sessions, oldest first. */
    List<String> open(UUID organizationId) {
        return jdbc.sql("select id from checkout_sessions where organization_id = ? and status = 'open'"
                        + " order by created_at, id")
                .param(organizationId)
                .query(String.class)
                .list();
    }

    /** Settles an open session; a settled one stays as it is. */
    void settle(String id, Status status) {
        jdbc.sql("update checkout_sessions set status = ?, updated_at = now() where id = ? and status = 'open'")
                .params(status.wire(), id)
                .update();
    }
}
