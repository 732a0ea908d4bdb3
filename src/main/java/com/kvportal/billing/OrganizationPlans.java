package com.kvportal.billing;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * Read-only answers about organizations' plans for other features (usage): the effective plan, the current
 * billing period, and which organizations' plans may have changed lately.
 */
@Service
public class OrganizationPlans {

    /** The plan an organization has now and the period it is measured over ({@code [start, end)}). */
    public record PlanPeriod(Plan plan, Instant start, Instant end) {}

    private final Billing billing;
    private final JdbcClient jdbc;

    OrganizationPlans(Billing billing, JdbcClient jdbc) {
        this.billing = billing;
        this.jdbc = jdbc;
    }

    /** The organization's effective plan (its subscription's while active, trialing or past due; else free). */
    public Plan effectivePlan(UUID organizationId) {
        return billing.effectivePlan(organizationId);
    }

    /**
     * The effective plan and the current period: the live subscription's current period, or the UTC calendar month
     * of {@code now} for an organization without one.
     */
    public PlanPeriod currentPeriod(UUID organizationId, Instant now) {
        Plan plan = billing.effectivePlan(organizationId);
        return jdbc.sql(
                        """
                        select current_period_start, current_period_end from subscriptions
                        where organization_id = ? and status not in ('canceled', 'incomplete_expired')
                          and current_period_start is not null and current_period_end is not null
                        order by created_at desc, id limit 1""")
                .param(organizationId)
                .query((rs, n) -> new PlanPeriod(
                        plan, Sql.instant(rs, "current_period_start"), Sql.instant(rs, "current_period_end")))
                .optional()
                .orElseGet(() -> calendarMonth(plan, now));
    }

    private static PlanPeriod calendarMonth(Plan plan, Instant now) {
        LocalDate first = LocalDate.ofInstant(now, ZoneOffset.UTC).withDayOfMonth(1);
        return new PlanPeriod(
                plan,
                first.atStartOfDay(ZoneOffset.UTC).toInstant(),
                first.plusMonths(1).atStartOfDay(ZoneOffset.UTC).toInstant());
    }

    /**
     * The effective plans of the organizations whose subscriptions changed at or after {@code since} (every
     * organization that ever had a subscription, for {@link Instant#EPOCH}), in one query.
     */
    public Map<UUID, Plan> effectivePlansChangedSince(Instant since) {
        Map<UUID, Plan> plans = new LinkedHashMap<>();
        jdbc.sql(
                        """
                        select o.organization_id, p.id, p.name, p.tier, p.storage_bytes, p.price_cents,
                               p.overage_bytes, p.overage_price_cents
                        from (select distinct organization_id from subscriptions where updated_at >= ?) o
                        left join lateral (
                            select s.plan_id from subscriptions s
                            where s.organization_id = o.organization_id
                              and s.status in ('active', 'trialing', 'past_due')
                            order by s.created_at desc, s.id limit 1) g on true
                        join plans p on p.id = g.plan_id or (g.plan_id is null and p.tier = 'free')""")
                .param(Sql.timestamp(since))
                .query((rs, n) -> plans.put(rs.getObject("organization_id", UUID.class), Plans.plan(rs, n)))
                .list();
        return plans;
    }
}
