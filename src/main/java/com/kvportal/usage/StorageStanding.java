package com.kvportal.usage;

import com.kvportal.billing.Billing;
import com.kvportal.billing.OrganizationPlans;
import com.kvportal.billing.Plan;
import com.kvportal.billing.Tier;
import com.kvportal.usage.StoredSamples.Changes;
import com.kvportal.usage.StoredSamples.Latest;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Service;

/**
 * Each organization's plan and current storage, answered from memory so that verify pays no database round trip
 * for them. A background refresh reads, every {@code kvportal.usage.refresh-interval} (1 s), only what changed: the
 * samples committed since its last snapshot and the plans of organizations whose subscriptions changed, so the
 * answers lag accepted samples and plan changes by about that interval (samples accepted by this instance count at
 * once).
 */
@Service
public class StorageStanding implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(StorageStanding.class);

    /**
     * What the storage backend needs to enforce the plan.
     *
     * @param tier the organization's effective plan
     * @param usedBytes its current storage: the sum of its projects' latest samples
     * @param allowanceBytes the effective plan's storage allowance
     * @param writeAllowed false when the plan has no overage and the storage has reached the allowance
     */
    public record Standing(Tier tier, long usedBytes, long allowanceBytes, boolean writeAllowed) {}

    private final StoredSamples samples;
    private final OrganizationPlans plans;
    private final UsageProperties properties;
    private final Clock clock;
    private final Plan free;

    private final Map<UUID, Latest> latestByProject = new ConcurrentHashMap<>();
    private final Map<UUID, Long> usedByOrganization = new ConcurrentHashMap<>();
    private final Map<UUID, Plan> planByOrganization = new ConcurrentHashMap<>();

    private String cursor;
    private Instant plansCheckedAt;
    private volatile boolean running;
    private ScheduledExecutorService refresher;

    StorageStanding(
            StoredSamples samples, OrganizationPlans plans, Billing billing, UsageProperties properties, Clock clock) {
        this.samples = samples;
        this.plans = plans;
        this.properties = properties;
        this.clock = clock;
        this.free = billing.plans().stream()
                .filter(plan -> plan.tier() == Tier.FREE)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("the plans table has no free plan"));
        this.plansCheckedAt = clock.instant();
        Changes everything = samples.latestOfEveryProject();
        apply(everything.samples());
        this.cursor = everything.cursor();
        planByOrganization.putAll(plans.effectivePlansChangedSince(Instant.EPOCH));
    }

    /** The organization's standing, from memory. */
    public Standing standingOf(UUID organizationId) {
        Plan plan = planByOrganization.getOrDefault(organizationId, free);
        long used = usedByOrganization.getOrDefault(organizationId, 0L);
        boolean writeAllowed = plan.overageBytes() > 0 || used < plan.storageBytes();
        return new Standing(plan.tier(), used, plan.storageBytes(), writeAllowed);
    }

    /** Takes samples in: a project's newest sample (by time, then arrival) is its current storage. */
    synchronized void apply(Collection<Latest> rows) {
        for (Latest row : rows) {
            Latest previous = latestByProject.get(row.projectId());
            if (previous != null && !row.isNewerThan(previous)) {
                continue;
            }
            latestByProject.put(row.projectId(), row);
            long delta = row.bytes() - (previous == null ? 0 : previous.bytes());
            usedByOrganization.merge(row.organizationId(), delta, Long::sum);
        }
    }

    /** Reads what changed since the last refresh. */
    void refresh() {
        Changes changes = samples.changesSince(cursor);
        apply(changes.samples());
        cursor = changes.cursor();
        Instant checkedAt = clock.instant();
        planByOrganization.putAll(plans.effectivePlansChangedSince(plansCheckedAt.minus(properties.planOverlap())));
        plansCheckedAt = checkedAt;
    }

    private void refreshQuietly() {
        try {
            refresh();
        } catch (RuntimeException e) {
            log.warn("Refreshing the organizations' storage failed; retrying: {}", e.toString());
        }
    }

    @Override
    public synchronized void start() {
        refresher = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "usage-standing-refresh");
            thread.setDaemon(true);
            return thread;
        });
        long interval = properties.refreshInterval().toMillis();
        refresher.scheduleWithFixedDelay(this::refreshQuietly, interval, interval, TimeUnit.MILLISECONDS);
        running = true;
    }

    @Override
    public synchronized void stop() {
        running = false;
        if (refresher != null) {
            refresher.shutdownNow();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
