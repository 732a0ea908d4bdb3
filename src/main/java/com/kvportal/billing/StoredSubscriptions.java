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

    private static final String[] ENDED =
            SubscriptionStatus.wires(SubscriptionStatus::hasEnded).toArray(String[]::new);
    private static final String[] GRANTING =
            SubscriptionStatus.wires(SubscriptionStatus::grantsPlan).toArray(String[]::new);

    private final JdbcClient jdbc;

    StoredSubscriptions(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The organization's newest subscription that has not ended. */
    Optional<Subscription> live(UUID organizationId) {
        return jdbc.sql(SELECT
                        + " where s.organization_id = ? and s.status <> all (?)"
                        + " order by s.created_at desc, s.id limit 1")
                .params(organizationId, ENDED)
                .query(StoredSubscriptions::subscription)
                .optional();
    }

    /** The organization's newest subscription whose plan it has now (active, trialing or past due). */
    Optional<Subscription> granting(UUID organizationId) {
        return jdbc.sql(SELECT
                        + " where s.organization_id = ? and s.status = any (?)"
                        + " order by s.created_at desc, s.id limit 1")
                .params(organizationId, GRANTING)
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
     * @return the new row's id; empty when the provider's id was known already
     */
    Optional<UUID> insertIfAbsent(
            UUID organizationId, UUID customerId, UUID planId, ProviderSubscription subscription, Instant stateAt) {
        UUID id = UUID.randomUUID();
        boolean inserted = jdbc.sql(
                                """
                        insert into subscriptions (id, organization_id, customer_id, plan_id, status, provider_customer_id,
                            provider_subscription_id, current_period_start, current_period_end, cancel_at,
                            provider_state_at)
                        values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        on conflict (provider_subscription_id) do nothing""")
                        .params(
                                id,
                                organizationId,
                                customerId,
                                planId,
                                subscription.status().wire(),
                                subscription.customer().value(),
                                subscription.id().value(),
                                Sql.timestamp(subscription.currentPeriodStart()),
                                Sql.timestamp(subscription.currentPeriodEnd()),
                                Sql.timestamp(subscription.cancelAt()),
                                Sql.timestamp(stateAt))
                        .update()
                > 0;
        return inserted ? Optional.of(id) : Optional.empty();
    }

    /** Locks the row until the transaction ends, so that concurrent events on one subscription apply in turn. */
    Optional<LockedSubscription> lock(ProviderSubscriptionId id) {
        return jdbc.sql(
                        """
                        select s.id, s.organization_id, s.plan_id, p.tier, s.status, s.current_period_start,
                               s.current_period_end, s.cancel_at, s.provider_state_at
                        from subscriptions s join plans p on p.id = s.plan_id
                        where s.provider_subscription_id = ? for update of s""")
                .param(id.value())
                .query((rs, n) -> new LockedSubscription(
                        rs.getObject("id", UUID.class),
                        rs.getObject("organization_id", UUID.class),
                        rs.getObject("plan_id", UUID.class),
                        Tier.of(rs.getString("tier")).orElseThrow(),
                        status(rs),
                        Sql.nullableInstant(rs, "current_period_start"),
                        Sql.nullableInstant(rs, "current_period_end"),
                        Sql.nullableInstant(rs, "cancel_at"),
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
                        subscription.status().wire(),
                        Sql.timestamp(subscription.currentPeriodStart()),
                        Sql.timestamp(subscription.currentPeriodEnd()),
                        Sql.timestamp(subscription.cancelAt()),
                        Sql.timestamp(stateAt),
                        id)
                .update();
    }

    void updateStatus(UUID id, SubscriptionStatus status, Instant stateAt) {
        jdbc.sql("update subscriptions set status = ?, provider_state_at = ?, updated_at = now() where id = ?")
                .params(status.wire(), Sql.timestamp(stateAt), id)
                .update();
    }

    private static SubscriptionStatus status(ResultSet rs) throws SQLException {
        String status = rs.getString("status");
        return SubscriptionStatus.of(status)
                .orElseThrow(() -> new IllegalStateException("unknown subscription status " + status));
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
                status(rs),
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
