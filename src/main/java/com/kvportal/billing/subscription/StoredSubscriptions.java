package com.kvportal.billing.subscription;

import com.kvportal.billing.Entitlement;
import com.kvportal.billing.Plan;
import com.kvportal.billing.SubscriptionStatus;
import com.kvportal.billing.Tier;
import com.kvportal.billing.ids.ProviderCustomerId;
import com.kvportal.billing.ids.ProviderSubscriptionId;
import com.kvportal.billing.stripe.ProviderSubscription;
import com.kvportal.common.database.Sql;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;
import lombok.RequiredArgsConstructor;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of the subscriptions table. */
@Repository
@RequiredArgsConstructor
public class StoredSubscriptions {

    private static final String SELECT =
            """
            select s.id, s.customer_id, s.organization_id, s.plan_id, s.status, s.provider_customer_id,
                   s.provider_subscription_id, s.current_period_start, s.current_period_end, s.cancel_at,
                   s.trial_end, s.created_at, s.updated_at, s.scheduled_change_at, sp.tier as scheduled_tier,
                   p.id as p_id, p.name as p_name, p.tier as p_tier, p.storage_bytes as p_storage_bytes,
                   p.price_cents as p_price_cents, p.overage_bytes as p_overage_bytes,
                   p.overage_price_cents as p_overage_price_cents
            from subscriptions s join plans p on p.id = s.plan_id
            left join plans sp on sp.id = s.scheduled_plan_id
            """;

    private static final String[] ENDED = wires(SubscriptionStatus::hasEnded);
    private static final String[] GRANTING = wires(SubscriptionStatus::grantsPlan);

    private final JdbcClient jdbc;
    private final Plans plans;

    /** The wire names of the statuses that pass {@code rule}, for SQL. */
    private static String[] wires(Predicate<SubscriptionStatus> rule) {
        return Arrays.stream(SubscriptionStatus.values())
                .filter(rule)
                .map(SubscriptionStatus::wire)
                .toArray(String[]::new);
    }

    /** The organization's newest subscription that has not ended. */
    public Optional<Subscription> live(UUID organizationId) {
        return newest(organizationId, "s.status <> all (?)", ENDED);
    }

    /** The organization's newest subscription whose plan it has now (active, trialing or past due). */
    public Optional<Subscription> granting(UUID organizationId) {
        return newest(organizationId, "s.status = any (?)", GRANTING);
    }

    /** The organization's newest subscription whose status meets {@code statusCondition} on {@code statuses}. */
    private Optional<Subscription> newest(UUID organizationId, String statusCondition, String[] statuses) {
        return jdbc.sql(SELECT
                        + " where s.organization_id = ? and " + statusCondition
                        + " order by s.created_at desc, s.id limit 1")
                .params(organizationId, statuses)
                .query(this::subscription)
                .optional();
    }

    /**
     * The entitlements of the organizations with a subscription written at or after {@code since}, in one query:
     * the plan and status of each one's newest subscription that grants its plan, else the free plan.
     */
    public Map<UUID, Entitlement> entitlementsWrittenSince(Instant since) {
        Map<UUID, Entitlement> entitlements = new LinkedHashMap<>();
        jdbc.sql(
                        """
                        select o.organization_id, g.status, p.id, p.name, p.tier, p.storage_bytes, p.price_cents,
                               p.overage_bytes, p.overage_price_cents
                        from (select distinct organization_id from subscriptions where updated_at >= ?) o
                        left join lateral (
                            select s.plan_id, s.status from subscriptions s
                            where s.organization_id = o.organization_id and s.status = any (?)
                            order by s.created_at desc, s.id limit 1) g on true
                        join plans p on p.id = coalesce(g.plan_id, (select id from plans where tier = ?))""")
                .params(Sql.timestamp(since), GRANTING, Tier.FREE.wire())
                .query(rs -> {
                    String status = rs.getString("status");
                    entitlements.put(
                            rs.getObject("organization_id", UUID.class),
                            new Entitlement(
                                    plans.plan(rs, 0),
                                    status == null ? null : Sql.wire(rs, "status", SubscriptionStatus.class)));
                });
        return entitlements;
    }

    /**
     * The organization's oldest subscription other than {@code id} that has not ended and is not a duplicate: the one
     * it keeps when {@code id} is a second.
     */
    Optional<UUID> otherLive(UUID organizationId, UUID id) {
        return jdbc.sql(
                        """
                        select id from subscriptions
                        where organization_id = ? and id <> ? and duplicate_of is null and status <> all (?)
                        order by created_at, id limit 1""")
                .params(organizationId, id, ENDED)
                .query(UUID.class)
                .optional();
    }

    void markDuplicate(UUID id, UUID keptId) {
        jdbc.sql("update subscriptions set duplicate_of = ?, updated_at = now() where id = ?")
                .params(keptId, id)
                .update();
    }

    public Optional<Subscription> byProviderId(ProviderSubscriptionId id) {
        return jdbc.sql(SELECT + " where s.provider_subscription_id = ?")
                .param(id.value())
                .query(this::subscription)
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
                            provider_state_at, trial_end)
                        values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
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
                                Sql.timestamp(stateAt),
                                Sql.timestamp(subscription.trialEnd()))
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
                        Sql.wire(rs, "tier", Tier.class),
                        Sql.wire(rs, "status", SubscriptionStatus.class),
                        Sql.nullableInstant(rs, "current_period_start"),
                        Sql.nullableInstant(rs, "current_period_end"),
                        Sql.nullableInstant(rs, "cancel_at"),
                        Sql.instant(rs, "provider_state_at")))
                .optional();
    }

    /**
     * Writes the provider's state. A new plan remembers the one before and since when it runs (the news's period
     * start), and ends a scheduled change (it took effect, or another change replaced it); so does the end.
     */
    void update(UUID id, UUID planId, ProviderSubscription subscription, Instant stateAt) {
        jdbc.sql(
                        """
                        update subscriptions set
                            previous_plan_id = case when plan_id <> ? then plan_id else previous_plan_id end,
                            plan_since = case when plan_id <> ? then ? else plan_since end,
                            scheduled_plan_id = case when plan_id <> ? or ? then null else scheduled_plan_id end,
                            scheduled_change_at = case when plan_id <> ? or ? then null else scheduled_change_at end,
                            provider_schedule_id = case when plan_id <> ? or ? then null else provider_schedule_id end,
                            plan_id = ?, status = ?, current_period_start = ?,
                            current_period_end = ?, cancel_at = ?, provider_state_at = ?, updated_at = now(),
                            trial_end = coalesce(?, trial_end)
                        where id = ?""")
                .params(
                        planId,
                        planId,
                        Sql.timestamp(Objects.requireNonNullElse(subscription.currentPeriodStart(), stateAt)),
                        planId,
                        subscription.status().hasEnded(),
                        planId,
                        subscription.status().hasEnded(),
                        planId,
                        subscription.status().hasEnded(),
                        planId,
                        subscription.status().wire(),
                        Sql.timestamp(subscription.currentPeriodStart()),
                        Sql.timestamp(subscription.currentPeriodEnd()),
                        Sql.timestamp(subscription.cancelAt()),
                        Sql.timestamp(stateAt),
                        Sql.timestamp(subscription.trialEnd()),
                        id)
                .update();
    }

    /**
     * True when the organization, or the provider customer, ever had a subscription (of any status, ended or not): it
     * gets no second trial.
     */
    public boolean everHad(UUID organizationId, ProviderCustomerId providerCustomerId) {
        return jdbc.sql(
                        "select exists (select 1 from subscriptions where organization_id = ? or provider_customer_id = ?)")
                .params(organizationId, providerCustomerId.value())
                .query(Boolean.class)
                .single();
    }

    /** True when the period of the subscription that ended at {@code periodEnd} was (within) its trial. */
    public boolean trialCovered(ProviderSubscriptionId id, Instant periodEnd) {
        return trialCovered("provider_subscription_id", id.value(), periodEnd);
    }

    /** True when the period of the subscription that ended at {@code periodEnd} was (within) its trial. */
    public boolean trialCovered(UUID id, Instant periodEnd) {
        return trialCovered("id", id, periodEnd);
    }

    private boolean trialCovered(String column, Object id, Instant periodEnd) {
        return jdbc.sql("select exists (select 1 from subscriptions where " + column
                        + " = ? and trial_end is not null and trial_end >= ?)")
                .params(id, Sql.timestamp(periodEnd))
                .query(Boolean.class)
                .single();
    }

    /**
     * Records the downgrade the provider's schedule makes at {@code effectiveAt}, replacing any before it; answers
     * false when the row records exactly that already.
     */
    boolean scheduleChange(UUID id, UUID planId, Instant effectiveAt, String providerScheduleId) {
        return jdbc.sql(
                                """
                        update subscriptions set scheduled_plan_id = ?, scheduled_change_at = ?,
                            provider_schedule_id = ?, updated_at = now()
                        where id = ? and (scheduled_plan_id is distinct from ?
                            or scheduled_change_at is distinct from ? or provider_schedule_id is distinct from ?)""")
                        .params(
                                planId,
                                Sql.timestamp(effectiveAt),
                                providerScheduleId,
                                id,
                                planId,
                                Sql.timestamp(effectiveAt),
                                providerScheduleId)
                        .update()
                > 0;
    }

    /** Forgets the scheduled change; answers whether there was one. */
    boolean clearScheduledChange(UUID id) {
        return jdbc.sql(
                                """
                        update subscriptions set scheduled_plan_id = null, scheduled_change_at = null,
                            provider_schedule_id = null, updated_at = now()
                        where id = ? and scheduled_plan_id is not null""")
                        .param(id)
                        .update()
                > 0;
    }

    /**
     * The plan the subscription had in the period that ended at {@code periodEnd}: the one before its current plan
     * when the current one took effect after that period, else the current one.
     */
    Optional<Tier> tierOfPeriodEndingAt(ProviderSubscriptionId id, UUID organizationId, Instant periodEnd) {
        return jdbc.sql(
                        """
                        select p.tier from subscriptions s
                        join plans p on p.id = case when s.previous_plan_id is not null and s.plan_since is not null
                                                         and s.plan_since >= ? then s.previous_plan_id
                                                    else s.plan_id end
                        where s.provider_subscription_id = ? and s.organization_id = ?""")
                .params(Sql.timestamp(periodEnd), id.value(), organizationId)
                .query((rs, n) -> Sql.wire(rs, "tier", Tier.class))
                .optional();
    }

    void updateStatus(UUID id, SubscriptionStatus status, Instant stateAt) {
        jdbc.sql("update subscriptions set status = ?, provider_state_at = ?, updated_at = now() where id = ?")
                .params(status.wire(), Sql.timestamp(stateAt), id)
                .update();
    }

    private Subscription subscription(ResultSet rs, int row) throws SQLException {
        Plan plan = plans.plan(rs, "p_");
        return new Subscription(
                rs.getObject("id", UUID.class),
                rs.getObject("customer_id", UUID.class),
                rs.getObject("organization_id", UUID.class),
                rs.getObject("plan_id", UUID.class),
                Sql.wire(rs, "status", SubscriptionStatus.class),
                new ProviderCustomerId(rs.getString("provider_customer_id")),
                new ProviderSubscriptionId(rs.getString("provider_subscription_id")),
                Sql.nullableInstant(rs, "current_period_start"),
                Sql.nullableInstant(rs, "current_period_end"),
                Sql.nullableInstant(rs, "cancel_at"),
                Sql.nullableInstant(rs, "trial_end"),
                rs.getString("scheduled_tier") == null
                        ? null
                        : new ScheduledChange(
                                Sql.wire(rs, "scheduled_tier", Tier.class), Sql.instant(rs, "scheduled_change_at")),
                Sql.instant(rs, "created_at"),
                Sql.instant(rs, "updated_at"),
                plan);
    }
}
