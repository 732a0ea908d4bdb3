package com.kvportal.usage.reporting;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.billing.Plan;
import com.kvportal.billing.Tier;
import com.kvportal.usage.reporting.StorageModel.Overage;
import com.kvportal.usage.reporting.StorageModel.Period;
import com.kvportal.usage.reporting.StorageModel.Sample;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The bill never exceeds the overage cap, over random storage histories and caps: the billed amount is
 * at most the cap, equals the uncapped amount to the cent when that is within the cap, and otherwise is the most whole
 * units the cap pays for. The uncapped amount is checked against a second-by-second sum, written apart from the
 * model.
 */
class OverageCapPropertyTest {

    static final long SEED = 20261125L;
    static final int HISTORIES = 3000;
    static final Instant START = Instant.parse("2026-11-21T00:00:00Z");

    @Test
    void theBilledOverageNeverExceedsTheCapAndEqualsTheUncappedAmountWithinIt() {
        Random random = new Random(SEED);
        int clamped = 0;
        int within = 0;
        for (int n = 0; n < HISTORIES; n++) {
            Plan plan = new Plan(
                    UUID.randomUUID(),
                    "Pro",
                    Tier.PRO,
                    random.nextInt(2000),
                    2000,
                    1 + random.nextInt(300),
                    1 + random.nextInt(500));
            long seconds = 1 + random.nextInt(2000);
            Period period = new Period(START, START.plusSeconds(seconds));
            List<List<Sample>> history = history(random, seconds, plan.storageBytes() * 3 + 1000);
            long uncappedCents = secondBySecond(history, period, plan);
            Long cap = random.nextInt(10) == 0 ? null : cap(random, uncappedCents, plan);
            String trial = "history " + n + ": " + plan + " " + history + " cap " + cap;

            Overage uncapped = StorageModel.overage(period, history, plan);
            Overage billed = StorageModel.capped(uncapped, plan, cap);

            assertThat(uncapped.amountCents()).as(trial).isEqualTo(uncappedCents);
            assertThat(billed.amountCents()).as(trial).isEqualTo(billed.units() * plan.overagePriceCents());
            assertThat(billed.averageBytes()).as(trial).isEqualTo(uncapped.averageBytes());
            if (cap == null || uncappedCents <= cap) {
                assertThat(billed).as(trial).isEqualTo(uncapped);
                within++;
            } else {
                assertThat(billed.amountCents()).as(trial).isLessThanOrEqualTo(cap);
                // the most whole units the cap pays for, never fewer
                assertThat(billed.amountCents() + plan.overagePriceCents())
                        .as(trial)
                        .isGreaterThan(cap);
                clamped++;
            }
        }
        // both sides of the property were exercised, many times
        assertThat(clamped).isGreaterThan(HISTORIES / 5);
        assertThat(within).isGreaterThan(HISTORIES / 5);
    }

    /** 1-3 projects, each 0-6 samples in time order, some before the period, some after, some at the same second. */
    private static List<List<Sample>> history(Random random, long seconds, long maxBytes) {
        List<List<Sample>> projects = new ArrayList<>();
        int count = 1 + random.nextInt(3);
        for (int p = 0; p < count; p++) {
            List<Sample> samples = new ArrayList<>();
            int size = random.nextInt(7);
            for (int i = 0; i < size; i++) {
                long at = -50 + (long) random.nextInt((int) seconds + 100);
                samples.add(new Sample(START.plusSeconds(at), (long) (random.nextDouble() * maxBytes)));
            }
            samples.sort(Comparator.comparing(Sample::at)); // stable: of one second, the later one wins
            projects.add(samples);
        }
        return projects;
    }

    /** A cap around the uncapped amount: 0, exactly it, just under or over, or anywhere up to twice it. */
    private static long cap(Random random, long uncappedCents, Plan plan) {
        return switch (random.nextInt(5)) {
            case 0 -> 0;
            case 1 -> uncappedCents;
            case 2 -> Math.max(0, uncappedCents - 1 - random.nextInt((int) plan.overagePriceCents()));
            case 3 -> uncappedCents + 1 + random.nextInt((int) plan.overagePriceCents());
            default -> (long) (random.nextDouble() * 2 * (uncappedCents + 1));
        };
    }

    /** The uncapped overage in cents by summing the storage of every second of the period. */
    private static long secondBySecond(List<List<Sample>> history, Period period, Plan plan) {
        long sum = 0;
        for (long t = period.start().getEpochSecond(); t < period.end().getEpochSecond(); t++) {
            for (List<Sample> project : history) {
                long bytes = 0;
                for (Sample sample : project) {
                    if (sample.at().getEpochSecond() <= t) {
                        bytes = sample.bytes();
                    }
                }
                sum += bytes;
            }
        }
        long average = sum / period.seconds();
        long above = Math.max(0, average - plan.storageBytes());
        long units = (above + plan.overageBytes() - 1) / plan.overageBytes();
        return units * plan.overagePriceCents();
    }
}
