package com.kvportal.billing;

import com.kvportal.billing.subscription.Plans;
import com.kvportal.billing.subscription.StoredSubscriptions;
import com.kvportal.billing.subscription.Subscription;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.UUID;
import lombok.AccessLevel;
import lombok.RequiredArgsConstructor;
import org.springframework.stereotype.Service;

/**
 * Read-only answers about organizations' plans for other features (usage): the effective plan, the current
 * billing period, and which organizations' plans may have changed lately. The rules are the statuses'
 * ({@link SubscriptionStatus#grantsPlan()}, {@link SubscriptionStatus#hasEnded()}).
 */
@Service
@RequiredArgsConstructor(access = AccessLevel.PACKAGE)
public class OrganizationPlans {

    /** The plan an organization has now and the period it is measured over ({@code [start, end)}). */
    public record PlanPeriod(Plan plan, Instant start, Instant end) {}

    private final Plans plans;
    private final StoredSubscriptions subscriptions;

    /** The organization's effective plan (its subscription's while active, trialing or past due; else free). */
    public Plan effectivePlan(UUID organizationId) {
        return subscriptions.granting(organizationId).map(Subscription::plan).orElseGet(() -> plans.byTier(Tier.FREE));
    }

    /**
     * The effective plan and the current period: the live subscription's current period, or the UTC calendar month
     * of {@code now} for an organization without one.
     */
    public PlanPeriod currentPeriod(UUID organizationId, Instant now) {
        Plan plan = effectivePlan(organizationId);
        return subscriptions
                .live(organizationId)
                .filter(s -> s.currentPeriodStart() != null && s.currentPeriodEnd() != null)
                .map(s -> new PlanPeriod(plan, s.currentPeriodStart(), s.currentPeriodEnd()))
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
     * The effective plans of the organizations whose subscriptions were written at or after {@code since} (every
     * organization that ever had a subscription, for {@link Instant#EPOCH}), in one query. A row carries the start
     * of the transaction that wrote it: pass a {@code since} with a margin before the previous call.
     */
    public Map<UUID, Plan> effectivePlansChangedSince(Instant since) {
        return subscriptions.effectivePlansWrittenSince(since);
    }
}
