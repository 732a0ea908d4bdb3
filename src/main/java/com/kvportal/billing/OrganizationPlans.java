package com.kvportal.billing;

import com.kvportal.billing.subscription.Plans;
import com.kvportal.billing.subscription.StoredSubscriptions;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.UUID;
import lombok.AccessLevel;
import lombok.RequiredArgsConstructor;
import org.springframework.stereotype.Service;

/**
 * Read-only answers about organizations' plans for other features (usage, verify): the {@link Entitlement}, the
 * current billing period, and which organizations' entitlements may have changed lately. The rules are the
 * statuses' ({@link SubscriptionStatus#grantsPlan()}, {@link SubscriptionStatus#hasEnded()}) and the
 * entitlement's.
 */
@Service
@RequiredArgsConstructor(access = AccessLevel.PACKAGE)
public class OrganizationPlans {

    /**
     * What an organization is entitled to now and the period it is measured over ({@code [start, end)}).
     *
     * @param entitlement its effective plan, the status that grants it, may it write
     */
    public record PlanPeriod(Entitlement entitlement, Instant start, Instant end) {

        /** The effective plan. */
        public Plan plan() {
            return entitlement.plan();
        }
    }

    private final Plans plans;
    private final StoredSubscriptions subscriptions;

    /**
     * The organization's entitlement: its subscription's plan and status while that grants the plan (active,
     * trialing or past due), else the free plan.
     */
    public Entitlement entitlement(UUID organizationId) {
        return subscriptions
                .granting(organizationId)
                .map(s -> new Entitlement(s.plan(), s.status()))
                .orElseGet(() -> Entitlement.free(plans.byTier(Tier.FREE)));
    }

    /** The organization's effective plan (its subscription's while active, trialing or past due; else free). */
    public Plan effectivePlan(UUID organizationId) {
        return entitlement(organizationId).plan();
    }

    /**
     * The entitlement and the current period: the live subscription's current period, or the UTC calendar month of
     * {@code now} for an organization without one.
     */
    public PlanPeriod currentPeriod(UUID organizationId, Instant now) {
        Entitlement entitlement = entitlement(organizationId);
        return subscriptions
                .live(organizationId)
                .filter(s -> s.currentPeriodStart() != null && s.currentPeriodEnd() != null)
                .map(s -> new PlanPeriod(entitlement, s.currentPeriodStart(), s.currentPeriodEnd()))
                .orElseGet(() -> calendarMonth(entitlement, now));
    }

    private static PlanPeriod calendarMonth(Entitlement entitlement, Instant now) {
        LocalDate first = LocalDate.ofInstant(now, ZoneOffset.UTC).withDayOfMonth(1);
        return new PlanPeriod(
                entitlement,
                first.atStartOfDay(ZoneOffset.UTC).toInstant(),
                first.plusMonths(1).atStartOfDay(ZoneOffset.UTC).toInstant());
    }

    /**
     * The entitlements of the organizations whose subscriptions were written at or after {@code since} (every
     * organization that ever had a subscription, for {@link Instant#EPOCH}), in one query. A row carries the start
     * of the transaction that wrote it: pass a {@code since} with a margin before the previous call.
     */
    public Map<UUID, Entitlement> entitlementsChangedSince(Instant since) {
        return subscriptions.entitlementsWrittenSince(since);
    }

    /** The entitlement of an organization without a subscription that grants a plan. */
    public Entitlement free() {
        return Entitlement.free(plans.byTier(Tier.FREE));
    }
}
