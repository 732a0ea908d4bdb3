package com.kvportal.usage.standing;

import com.kvportal.billing.Entitlement;
import com.kvportal.billing.OrganizationPlans;
import com.kvportal.billing.Plan;
import com.kvportal.billing.SubscriptionStatus;
import com.kvportal.billing.Tier;
import com.kvportal.usage.Standing;
import com.kvportal.usage.UsageLimits;
import com.kvportal.usage.WriteRefusal;
import com.kvportal.usage.overage.BilledPeriods;
import com.kvportal.usage.overage.BilledPeriods.BilledPeriod;
import com.kvportal.usage.reporting.StorageModel;
import com.kvportal.usage.reporting.StorageModel.Overage;
import com.kvportal.usage.reporting.StorageModel.Timeline;
import com.kvportal.usage.reporting.StoredSamples;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

/** What an organization's usage looks like this period, and the periods whose overage was billed. */
@Service
@RequiredArgsConstructor
public class UsageReading {

    /** {@code GET /api/v1/usage}. */
    public record Usage(
            @Schema(description = "The organization's effective plan.") Tier tier,
            Instant periodStart,
            Instant periodEnd,
            @Schema(minimum = "0") long allowanceBytes,
            @Schema(minimum = "0") long currentBytes,
            @Schema(description = "The average over the period so far.", minimum = "0") long averageBytes,
            @Schema(description = "If the current storage holds until the period end.", minimum = "0")
                    long projectedOverageUnits,
            @Schema(minimum = "0") long projectedOverageCents,
            List<ProjectUsage> projects,
            @Schema(description = "Each UTC day of the period so far.") List<Day> daily,
            @Schema(description = "What the organization is entitled to now; the dashboard shows it as it is.")
                    UsageEntitlement entitlement,
            @Schema(description = "The usage limits in force, in bytes and cents on the current plan.")
                    LimitsInForce limits) {}

    /**
     * Billing's {@link Entitlement} with the write rule applied to the current storage, the customer's own limits
     * included, as verify applies it.
     */
    @Schema(name = "Entitlement")
    record UsageEntitlement(
            @Schema(description = "The effective plan.") Plan plan,
            @Schema(
                            nullable = true,
                            description = "The status of the subscription that grants the plan; null on the free"
                                    + " plan without one.")
                    @Nullable
                    SubscriptionStatus subscriptionStatus,
            @Schema(description = "False when writes are refused now (reads go on): see reason.") boolean writeAllowed,
            @Schema(
                            nullable = true,
                            description = "Null when writes are allowed; else why not, as verify tells it: storage_cap,"
                                    + " overage_cap or allowance_reached.")
                    @Nullable
                    WriteRefusal reason) {}

    /** The organization's usage limits and what they mean on its current plan, for the billing page. */
    @Schema(name = "UsageLimitsInForce")
    record LimitsInForce(
            @Schema(description = "Each alert threshold, ascending, and the storage at which it is reached.")
                    List<AlertLevel> alertThresholds,
            @Schema(description = "Writes are refused once storage reaches it; null: no cap.", nullable = true)
                    @Nullable
                    Long storageCapBytes,
            @Schema(description = "The overage cap; null: none.", nullable = true) @Nullable Long overageCapCents,
            @Schema(
                            description = "The most storage above the allowance (on the period's average) whose"
                                    + " overage the cap pays for: whole overage units; null without an overage cap or"
                                    + " on a plan without overage.",
                            nullable = true)
                    @Nullable
                    Long overageCapBytes) {}

    /** An alert threshold: {@code percent} of the allowance is {@code bytes}. */
    @Schema(name = "UsageAlertLevel")
    record AlertLevel(@Schema(minimum = "1", maximum = "100") int percent, @Schema(minimum = "0") long bytes) {}

    @Schema(name = "ProjectUsage")
    record ProjectUsage(UUID projectId, String name, @Schema(minimum = "0") long currentBytes) {}

    /** One UTC day of the period so far; {@code date} as {@code 2026-11-21}. */
    @Schema(name = "UsageDay")
    record Day(
            @Schema(format = "date", example = "2026-11-21") String date,
            @Schema(minimum = "0") long averageBytes,
            @Schema(minimum = "0") long peakBytes) {}

    private final StoredSamples samples;
    private final BilledPeriods billed;
    private final OrganizationPlans plans;
    private final Clock clock;

    /** The current period's storage so far: samples up to now, none ahead, so today's storage holds to its end. */
    private record SoFar(Instant now, OrganizationPlans.PlanPeriod period, Timeline timeline) {

        /** The period's overage if the storage of now holds until the period ends (the projection docs/design.md describes). */
        Overage projected() {
            return StorageModel.overage(timeline.average(period.start(), period.end()), period.plan());
        }
    }

    private SoFar soFar(UUID organizationId) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        OrganizationPlans.PlanPeriod period = plans.currentPeriod(organizationId, now);
        Timeline timeline = Timeline.of(samples.forInterval(organizationId, period.start(), now.plusSeconds(1))
                .values());
        return new SoFar(now, period, timeline);
    }

    /** The current period's projected overage: its storage so far, today's held until the period ends. */
    public Overage projectedOverage(UUID organizationId) {
        return soFar(organizationId).projected();
    }

    /** The usage with verify's current answer about writes and the limits in force, as the billing page shows it. */
    public Usage usage(UUID organizationId, Standing standing, UsageLimits limits) {
        SoFar reading = soFar(organizationId);
        Instant now = reading.now();
        Plan plan = reading.period().plan();
        Instant start = reading.period().start();
        Instant end = reading.period().end();
        Instant soFar = now.isAfter(end) ? end : now.isBefore(start) ? start : now;
        Timeline timeline = reading.timeline();
        long current = timeline.at(now);
        Overage projected = reading.projected();
        List<ProjectUsage> projects = samples.projectsAt(organizationId, now).stream()
                .map(p -> new ProjectUsage(p.projectId(), p.name(), p.bytes()))
                .toList();
        return new Usage(
                plan.tier(),
                start,
                end,
                plan.storageBytes(),
                current,
                timeline.average(start, soFar),
                projected.units(),
                projected.amountCents(),
                projects,
                daily(timeline, start, soFar),
                new UsageEntitlement(
                        reading.period().entitlement().plan(),
                        reading.period().entitlement().subscriptionStatus(),
                        standing.writeAllowed(),
                        standing.refusal()),
                inForce(limits, plan));
    }

    private static LimitsInForce inForce(UsageLimits limits, Plan plan) {
        List<AlertLevel> levels = limits.alertThresholdsPercent().stream()
                .map(percent -> new AlertLevel(percent, UsageLimits.thresholdBytes(percent, plan.storageBytes())))
                .toList();
        Long overageCap = limits.overageCapCents();
        Long overageCapBytes = overageCap == null || plan.overageBytes() <= 0 || plan.overagePriceCents() <= 0
                ? null
                : overageCap / plan.overagePriceCents() * plan.overageBytes();
        return new LimitsInForce(levels, limits.storageCapBytes(), overageCap, overageCapBytes);
    }

    private static List<Day> daily(Timeline timeline, Instant start, Instant soFar) {
        List<Day> days = new ArrayList<>();
        for (LocalDate date = LocalDate.ofInstant(start, ZoneOffset.UTC); ; date = date.plusDays(1)) {
            Instant dayStart = date.atStartOfDay(ZoneOffset.UTC).toInstant();
            if (!dayStart.isBefore(soFar)) {
                break;
            }
            Instant from = dayStart.isBefore(start) ? start : dayStart;
            Instant dayEnd = date.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
            Instant to = dayEnd.isAfter(soFar) ? soFar : dayEnd;
            days.add(new Day(date.toString(), timeline.average(from, to), timeline.peak(from, to)));
        }
        return days;
    }

    public List<BilledPeriod> periods(UUID organizationId) {
        return billed.ofOrganization(organizationId);
    }
}
