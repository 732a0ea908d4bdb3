package com.kvportal.usage.reporting;

import com.kvportal.billing.Plan;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The arithmetic of storage usage, pure: a project's storage is a step function of its samples (the
 * latest sample at or before a time, 0 before the first), the organization's storage is the sum over its projects,
 * the average over {@code [start, end)} is the integral in byte-seconds divided by the length in seconds, and the
 * overage is {@code ceil(max(0, floor(average) - storage_bytes) / overage_bytes)} units of
 * {@code overage_price_cents}. Times count in whole seconds.
 */
public final class StorageModel {

    private StorageModel() {}

    /** A project's reported total at an instant. Samples of one instant: the later in the given order wins. */
    record Sample(Instant at, long bytes) {}

    /** A measured period, {@code [start, end)}. */
    public record Period(Instant start, Instant end) {
        public Period {
            if (end.isBefore(start)) {
                throw new IllegalArgumentException("period ends before it starts: " + start + " - " + end);
            }
        }

        long seconds() {
            return end.getEpochSecond() - start.getEpochSecond();
        }
    }

    /** A period's average storage and the overage it costs on a plan. */
    public record Overage(long averageBytes, long units, long amountCents) {}

    /** The overage of the organization's samples (per project, each in time order) over the period on the plan. */
    public static Overage overage(Period period, Collection<List<Sample>> samplesByProject, Plan plan) {
        return overage(Timeline.of(samplesByProject).average(period.start(), period.end()), plan);
    }

    /** The overage of an average on the plan; none on a plan without overage. */
    public static Overage overage(long averageBytes, Plan plan) {
        if (plan.overageBytes() <= 0) {
            return new Overage(averageBytes, 0, 0);
        }
        long above = Math.max(0, averageBytes - plan.storageBytes());
        long units = ceilDiv(above, plan.overageBytes());
        return new Overage(averageBytes, units, Math.multiplyExact(units, plan.overagePriceCents()));
    }

    /**
     * The overage as billed under an overage cap: {@code units = min(units, floor(cap /
     * overage_price_cents))}, so the amount never exceeds the cap and equals the uncapped amount when that is within
     * it. No cap (null), or a plan whose overage costs nothing: the overage unchanged.
     */
    public static Overage capped(Overage overage, Plan plan, @Nullable Long capCents) {
        if (capCents == null || plan.overagePriceCents() <= 0) {
            return overage;
        }
        long units = Math.min(overage.units(), capCents / plan.overagePriceCents());
        return new Overage(overage.averageBytes(), units, Math.multiplyExact(units, plan.overagePriceCents()));
    }

    private static long ceilDiv(long dividend, long divisor) {
        return -Math.floorDiv(-dividend, divisor);
    }

    /** The organization's storage over time: the sum of its projects' step functions. */
    public static final class Timeline {

        /** Epoch seconds at which the total changes, ascending. */
        private final long[] times;
        /** The total from {@code times[i]} until {@code times[i + 1]} (or forever); 0 before {@code times[0]}. */
        private final long[] totals;

        private Timeline(long[] times, long[] totals) {
            this.times = times;
            this.totals = totals;
        }

        /** Builds the timeline from each project's samples, each list in time order (ties: the later one wins). */
        public static Timeline of(Collection<List<Sample>> samplesByProject) {
            record Step(long second, int project, long bytes, int order) {}
            List<Step> steps = new ArrayList<>();
            int project = 0;
            for (List<Sample> samples : samplesByProject) {
                for (Sample sample : samples) {
                    steps.add(new Step(sample.at().getEpochSecond(), project, sample.bytes(), steps.size()));
                }
                project++;
            }
            steps.sort(Comparator.comparingLong(Step::second).thenComparingInt(Step::order));
            Map<Integer, Long> current = new HashMap<>();
            long total = 0;
            long[] times = new long[steps.size()];
            long[] totals = new long[steps.size()];
            int n = 0;
            for (Step step : steps) {
                Long previous = current.put(step.project(), step.bytes());
                total += step.bytes() - (previous == null ? 0 : previous);
                if (n > 0 && times[n - 1] == step.second()) {
                    totals[n - 1] = total;
                } else {
                    times[n] = step.second();
                    totals[n] = total;
                    n++;
                }
            }
            return new Timeline(Arrays.copyOf(times, n), Arrays.copyOf(totals, n));
        }

        /** The organization's storage at the instant. */
        public long at(Instant instant) {
            int i = indexAt(instant.getEpochSecond());
            return i < 0 ? 0 : totals[i];
        }

        /** The integral of the storage over {@code [from, to)} in byte-seconds. */
        BigInteger byteSeconds(Instant from, Instant to) {
            long start = from.getEpochSecond();
            long end = to.getEpochSecond();
            BigInteger sum = BigInteger.ZERO;
            if (end <= start) {
                return sum;
            }
            int i = indexAt(start);
            long t = start;
            while (t < end) {
                long next = i + 1 < times.length ? Math.min(times[i + 1], end) : end;
                long value = i < 0 ? 0 : totals[i];
                if (value != 0) {
                    sum = sum.add(BigInteger.valueOf(value).multiply(BigInteger.valueOf(next - t)));
                }
                t = next;
                i++;
            }
            return sum;
        }

        /**
         * The average storage over {@code [from, to)}, rounded down to a whole byte; over an empty interval, the
         * storage at {@code from}.
         */
        public long average(Instant from, Instant to) {
            long seconds = to.getEpochSecond() - from.getEpochSecond();
            if (seconds <= 0) {
                return at(from);
            }
            return byteSeconds(from, to).divide(BigInteger.valueOf(seconds)).longValueExact();
        }

        /** The highest storage at any second of {@code [from, to)}; over an empty interval, the storage at from. */
        public long peak(Instant from, Instant to) {
            long start = from.getEpochSecond();
            long end = to.getEpochSecond();
            int i = indexAt(start);
            long peak = i < 0 ? 0 : totals[i];
            for (int j = i + 1; j < times.length && times[j] < end; j++) {
                peak = Math.max(peak, totals[j]);
            }
            return peak;
        }

        /** The index of the last change at or before the second, or -1 before the first change. */
        private int indexAt(long second) {
            int found = Arrays.binarySearch(times, second);
            return found >= 0 ? found : -found - 2;
        }
    }
}
