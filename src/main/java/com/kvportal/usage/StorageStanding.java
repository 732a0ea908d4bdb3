package com.kvportal.usage;

import com.kvportal.billing.Entitlement;
import com.kvportal.billing.OrganizationPlans;
import com.kvportal.common.scheduling.PeriodicJob;
import com.kvportal.usage.limits.StoredLimits;
import com.kvportal.usage.reporting.StoredSamples;
import com.kvportal.usage.reporting.StoredSamples.Changes;
import com.kvportal.usage.reporting.StoredSamples.Latest;
import com.kvportal.usage.standing.UsageReading;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Service;

/**
 * Each organization's plan, current storage and usage limits, answered from memory so that verify pays no database
 * round trip for them. A background refresh reads, every {@code kvportal.usage.refresh-interval} (1 s), only what
 * changed: the samples and the limits committed since its last snapshot and the plans of organizations whose
 * subscriptions changed, so the answers lag accepted samples, limits and plan changes by about that interval (samples
 * accepted by this instance count at once). For an organization with an overage cap above 0 it also keeps the
 * period's projected overage, redone in the background when its storage, plan or limits change (and every minute,
 * for a period that rolls over): the projection of today's storage held to the period end changes only then.
 */
@Service
public class StorageStanding implements PeriodicJob {

    /** How often the projections of the organizations with an overage cap are redone without a change. */
    private static final Duration PROJECTION_RENEWAL = Duration.ofMinutes(1);

    private final StoredSamples samples;
    private final OrganizationPlans plans;
    private final StoredLimits storedLimits;
    private final UsageReading reading;
    private final UsageProperties properties;
    private final Clock clock;
    private final Entitlement free;
    private final List<Watcher> watchers;

    /** Each organization's standing as last told to the watchers (an organization absent: {@link #nothingKnown}). */
    private final Map<UUID, Standing> told = new ConcurrentHashMap<>();

    private final Map<UUID, Latest> latestByProject = new ConcurrentHashMap<>();
    private final Map<UUID, Long> usedByOrganization = new ConcurrentHashMap<>();
    private final Map<UUID, Entitlement> entitlementByOrganization = new ConcurrentHashMap<>();
    private final Map<UUID, UsageLimits> limitsByOrganization = new ConcurrentHashMap<>();
    /** The projected overage in cents of each organization whose overage cap is above 0 (0 is met at the allowance). */
    private final Map<UUID, Long> projectedCentsByOrganization = new ConcurrentHashMap<>();
    /** Organizations whose storage, plan or limits changed since their projection was made. */
    private final Set<UUID> toProject = ConcurrentHashMap.newKeySet();
    /** Organizations whose storage, plan or limits changed since their alerts were last evaluated. */
    private final Set<UUID> changed = ConcurrentHashMap.newKeySet();

    private String cursor;
    private Instant plansCheckedAt;
    private String limitsCursor;
    private Instant projectedAt;

    StorageStanding(
            StoredSamples samples,
            OrganizationPlans plans,
            StoredLimits storedLimits,
            UsageReading reading,
            UsageProperties properties,
            Clock clock,
            List<Watcher> watchers) {
        this.samples = samples;
        this.plans = plans;
        this.storedLimits = storedLimits;
        this.reading = reading;
        this.properties = properties;
        this.clock = clock;
        this.watchers = List.copyOf(watchers);
        this.free = plans.free();
        this.plansCheckedAt = clock.instant();
        Changes everything = samples.latestOfEveryProject();
        apply(everything.samples());
        this.cursor = everything.cursor();
        entitlementByOrganization.putAll(plans.entitlementsChangedSince(Instant.EPOCH));
        StoredLimits.Changes limits = storedLimits.changesSince(null);
        limitsByOrganization.putAll(limits.limits());
        this.limitsCursor = limits.cursor();
        this.projectedAt = clock.instant();
        project(limits.limits().keySet());
        // an alert due when the last instance stopped is raised now
        changed.addAll(usedByOrganization.keySet());
        changed.addAll(limits.limits().keySet());
        Set<UUID> known = new HashSet<>(usedByOrganization.keySet());
        known.addAll(entitlementByOrganization.keySet());
        known.addAll(limitsByOrganization.keySet());
        known.forEach(organizationId -> told.put(organizationId, standingOf(organizationId)));
    }

    /** Told, after a refresh, which organizations' standing changed (the ids, each once). */
    public interface Watcher {
        void standingsChanged(Set<UUID> organizationIds);
    }

    /** The organization's standing, from memory. */
    public Standing standingOf(UUID organizationId) {
        Entitlement entitlement = entitlementByOrganization.getOrDefault(organizationId, free);
        long used = usedByOrganization.getOrDefault(organizationId, 0L);
        WriteRefusal refusal = WriteRefusal.of(
                entitlement,
                used,
                limitsByOrganization.getOrDefault(organizationId, UsageLimits.DEFAULTS),
                projectedCentsByOrganization.getOrDefault(organizationId, 0L));
        return new Standing(entitlement, used, refusal);
    }

    /** Takes samples in: a project's newest sample (by time, then arrival) is its current storage. */
    public synchronized void apply(Collection<Latest> rows) {
        for (Latest row : rows) {
            Latest previous = latestByProject.get(row.projectId());
            if (previous != null && !row.isNewerThan(previous)) {
                continue;
            }
            latestByProject.put(row.projectId(), row);
            long delta = row.bytes() - (previous == null ? 0 : previous.bytes());
            usedByOrganization.merge(row.organizationId(), delta, Long::sum);
            toProject.add(row.organizationId());
            changed.add(row.organizationId());
        }
    }

    /** Reads what changed since the last refresh. */
    void refresh() {
        Changes changes = samples.changesSince(cursor);
        apply(changes.samples());
        cursor = changes.cursor();
        Instant checkedAt = clock.instant();
        Map<UUID, Entitlement> changedPlans =
                plans.entitlementsChangedSince(plansCheckedAt.minus(properties.planOverlap()));
        entitlementByOrganization.putAll(changedPlans);
        plansCheckedAt = checkedAt;
        toProject.addAll(changedPlans.keySet());
        StoredLimits.Changes limits = storedLimits.changesSince(limitsCursor);
        limitsByOrganization.putAll(limits.limits());
        limitsCursor = limits.cursor();
        toProject.addAll(limits.limits().keySet());
        if (!checkedAt.isBefore(projectedAt.plus(PROJECTION_RENEWAL))) {
            // a period rolls over with no sample: the projection of a new period starts afresh
            toProject.addAll(projectedCentsByOrganization.keySet());
            projectedAt = checkedAt;
        }
        Set<UUID> due = Set.copyOf(toProject);
        toProject.removeAll(due);
        project(due);
        changed.addAll(due);
        tellWatchers(due);
    }

    /** Tells the watchers which of these organizations' standing differs from what they were told last. */
    private void tellWatchers(Set<UUID> candidates) {
        Set<UUID> different = new HashSet<>();
        for (UUID organizationId : candidates) {
            Standing now = standingOf(organizationId);
            if (!now.equals(told.getOrDefault(organizationId, nothingKnown()))) {
                different.add(organizationId);
            }
            told.put(organizationId, now);
        }
        if (!different.isEmpty()) {
            watchers.forEach(watcher -> watcher.standingsChanged(Set.copyOf(different)));
        }
    }

    /** The standing of an organization this instance knows nothing of: the free plan, no storage. */
    private Standing nothingKnown() {
        return new Standing(free, 0, WriteRefusal.of(free, 0, UsageLimits.DEFAULTS, 0L));
    }

    /** The organizations whose storage, plan or limits changed since the last call (for the alerts scheduler, {@code usage.alerts.AlertScheduler}). */
    public Set<UUID> drainChanged() {
        Set<UUID> due = Set.copyOf(changed);
        changed.removeAll(due);
        return due;
    }

    /** Evaluates the organization's alerts again on the next round. */
    public void markChanged(UUID organizationId) {
        changed.add(organizationId);
    }

    /**
     * Redoes the projected overage of those of the organizations whose overage cap is above 0, in the background:
     * verify only reads the figure. A cap of 0 needs none (any storage at the allowance meets it).
     */
    private void project(Collection<UUID> organizations) {
        for (UUID organizationId : organizations) {
            Long cap = limitsByOrganization
                    .getOrDefault(organizationId, UsageLimits.DEFAULTS)
                    .overageCapCents();
            Entitlement entitlement = entitlementByOrganization.getOrDefault(organizationId, free);
            if (cap == null || cap == 0 || !entitlement.billsOverage()) {
                projectedCentsByOrganization.remove(organizationId);
            } else {
                projectedCentsByOrganization.put(
                        organizationId, reading.projectedOverage(organizationId).amountCents());
            }
        }
    }

    @Override
    public Schedule schedule() {
        return Schedule.every("usage-standing-refresh", properties.refreshInterval(), this::refresh);
    }
}
