package com.kvportal.billing.subscription;

import com.kvportal.billing.ids.ProviderCustomerId;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of the billing_accounts table: organization to provider customer, one to one. */
@Repository
@RequiredArgsConstructor
public class BillingAccounts {

    private final JdbcClient jdbc;

    public Optional<BillingAccount> find(UUID organizationId) {
        return jdbc.sql("select organization_id, provider_customer_id, customer_id from billing_accounts"
                        + " where organization_id = ?")
                .param(organizationId)
                .query(BillingAccounts::account)
                .optional();
    }

    public Optional<BillingAccount> findByProviderCustomer(ProviderCustomerId customer) {
        return jdbc.sql("select organization_id, provider_customer_id, customer_id from billing_accounts"
                        + " where provider_customer_id = ?")
                .param(customer.value())
                .query(BillingAccounts::account)
                .optional();
    }

    /**
     * Locks the organization's account row until the transaction ends: what must happen one at a time per
     * organization (recording a new subscription, recording a new checkout session) takes it first.
     */
    public void lock(UUID organizationId) {
        jdbc.sql("select organization_id from billing_accounts where organization_id = ? for update")
                .param(organizationId)
                .query(UUID.class)
                .optional();
    }

    /** Links the organization unless it (or the provider customer) is linked already: the first link stays. */
    public void insertIfAbsent(BillingAccount account) {
        jdbc.sql("insert into billing_accounts (organization_id, provider_customer_id, customer_id) values (?, ?, ?)"
                        + " on conflict do nothing")
                .params(account.organizationId(), account.providerCustomerId().value(), account.customerId())
                .update();
    }

    /**
     * Links an organization to a provider customer that the provider reported for it, naming {@code customerId}
     * only when that customer is a member of the organization (it comes from the provider's copy of our metadata).
     *
     * @return false when nothing was linked: the organization or the provider customer is linked already, or
     *     the customer is no member
     */
    public boolean linkIfMember(UUID organizationId, ProviderCustomerId customer, UUID customerId) {
        // memberships belongs to the account feature; this read-only check keeps a bad id out of a foreign key
        return jdbc.sql(
                                """
                        insert into billing_accounts (organization_id, provider_customer_id, customer_id)
                        select ?, ?, ? where exists
                            (select 1 from memberships where organization_id = ? and customer_id = ?)
                        on conflict do nothing""")
                        .params(organizationId, customer.value(), customerId, organizationId, customerId)
                        .update()
                > 0;
    }

    private static BillingAccount account(ResultSet rs, int row) throws SQLException {
        return new BillingAccount(
                rs.getObject("organization_id", UUID.class),
                new ProviderCustomerId(rs.getString("provider_customer_id")),
                rs.getObject("customer_id", UUID.class));
    }
}
