package com.kvportal.billing;

import com.kvportal.billing.stripe.ProviderSubscription;
import com.kvportal.billing.stripe.ProviderSubscriptionId;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of the subscriptions table. */
@Repository
class StoredSubscriptions {

    private static final String SELECT =
            """
            select s.id, s.customer_id, s.organization_id, s.plan_id, s.status, s.provider_customer_id,
                   s.provider_subscription_id, s.current_period_start, s.current_period_end, s.cancel_at,
                   s.created_at, s.updated_at,
                   p.id as p_id, p.name as p_name, p.tier as p_tier, p.storage_bytes as p_storage_bytes,
                   p.price_cents as p_price_cents, p.overage_bytes as p_overage_bytes,
                   p.overage_price_cents as p_overage_price_cents
            from subscriptions s join plans p on p.id = s.plan_id
            """;

    private final JdbcClient jdbc;

    StoredSubscriptions(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** What an update needs to decide whether it is newer than the row. */
    record State(UUID id, UUID organizationId, String status, Instant providerStateAt) {}

    /** The organization's newest subscription that has not ended. */
    Optional<Subscription> live(UUID organizationId) {
        return jdbc.sql(SELECT
                        + " where s.organization_id = ? and s.status not in ('canceled', 'incomplete_expired')"
                        + " order by s.created_at desc, s.id limit 1")
                .param(organizationId)
                .query(StoredSubscriptions::subscription)
                .optional();
    }

    /** The organization's newest subscription whose plan it has now (active, trialing or past due). */
    Optional<Subscription> granting(UUID organizationId) {
        return jdbc.sql(SELECT
                        + " where s.organization_id = ? and s.status in ('active', 'trialing', 'past_due')"
                        + " order by s.created_at desc, s.id limit 1")
                .param(organizationId)
                .query(StoredSubscriptions::subscription)
                .optional();
    }

    Optional<Subscription> byProviderId(ProviderSubscriptionId id) {
        return jdbc.sql(SELECT + " where s.provider_subscription_id = ?")
                .param(id.value())
                .query(StoredSubscriptions::subscription)
                .optional();
    }

    /**
     * Inserts the subscription unless the provider's id is known already (then a concurrent writer waits here for
     * the other's commit).
     *
     * @return true when inserted
     */
    boolean insertIfAbsent(
            UUID organizationId, UUID customerId, UUID planId, ProviderSubscription subscription, Instant stateAt) {
        return jdbc.sql(
                                """
                        insert into subscriptions (id, organization_id, customer_id, plan_id, status, provider_customer_id,
                            provider_subscription_id, current_period_start, current_period_end, cancel_at,
                            provider_state_at)
                        values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        on conflict (provider_subscription_id) do nothing""")
                        .params(
                                UUID.randomUUID(),
                                organizationId,
                                customerId,
                                planId,
                                subscription.status(),
                                subscription.customer().value(),
                                subscription.id().value(),
                                Sql.timestamp(subscription.currentPeriodStart()),
                                Sql.timestamp(subscription.currentPeriodEnd()),
                                Sql.timestamp(subscription.cancelAt()),
                                Sql.timestamp(stateAt))
                        .update()
                > 0;
    }

    /** Locks the row until the transaction ends, so that concurrent events on one subscription apply in turn. */
    Optional<State> lock(ProviderSubscriptionId id) {
        return jdbc.sql("select id, organization_id, status, provider_state_at from subscriptions"
                        + " where provider_subscription_id = ? for update")
                .param(id.value())
                .query((rs, n) -> new State(
                        rs.getObject("id", UUID.class),
                        rs.getObject("organization_id", UUID.class),
                        rs.getString("status"),
                        Sql.instant(rs, "provider_state_at")))
                .optional();
    }

    void update(UUID id, UUID planId, ProviderSubscription subscription, Instant stateAt) {
        jdbc.sql(
                        """
                        update subscriptions set plan_id = ?, status = ?, current_period_start = ?,
                            current_period_end = ?, cancel_at = ?, provider_state_at = ?, updated_at = now()
                        where id = ?""")
                .params(
                        planId,
                        subscription.status(),
                        Sql.timestamp(subscription.currentPeriodStart()),
                        Sql.timestamp(subscription.currentPeriodEnd()),
                        Sql.timestamp(subscription.cancelAt()),
                        Sql.timestamp(stateAt),
                        id)
                .update();
    }

    void updateStatus(UUID id, String status, Instant stateAt) {
        jdbc.sql("update subscriptions set status = ?, provider_state_at = ?, updated_at = now() where id = ?")
                .params(status, Sql.timestamp(stateAt), id)
                .update();
    }

    private static Subscription subscription(ResultSet rs, int row) throws SQLException {
        Plan plan = new Plan(
                rs.getObject("p_id", UUID.class),
                rs.getString("p_name"),
                Tier.of(rs.getString("p_tier")).orElseThrow(),
                rs.getLong("p_storage_bytes"),
                rs.getLong("p_price_cents"),
                rs.getLong("p_overage_bytes"),
                rs.getLong("p_overage_price_cents"));
        return new Subscription(
                rs.getObject("id", UUID.class),
                rs.getObject("customer_id", UUID.class),
                rs.getObject("organization_id", UUID.class),
                rs.getObject("plan_id", UUID.class),
                rs.getString("status"),
                rs.getString("provider_customer_id"),
                rs.getString("provider_subscription_id"),
                Sql.nullableInstant(rs, "current_period_start"),
                Sql.nullableInstant(rs, "current_period_end"),
                Sql.nullableInstant(rs, "cancel_at"),
                Sql.instant(rs, "created_at"),
                Sql.instant(rs, "updated_at"),
                plan);
    }
}
