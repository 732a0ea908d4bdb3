package com.kvportal.soak;

import java.math.BigInteger;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The storage and overage rules of docs/design.md written out again, on purpose apart from the product's {@code StorageModel}: each project's
 * storage is a step function of its samples (the latest at or before a second, 0 before the first), integrated in
 * byte-seconds over {@code [start, end)} project by project; the organization's average is the sum divided by the
 * length, rounded down; the overage is {@code ceil(max(0, floor(average) - allowance) / unit)} units of the plan's
 * unit price: on pro 100 GiB, 10 GiB and 200 cents, on team 1 TiB, 100 GiB and 1,500 cents. A trial's period bills
 * no overage.
 */
record ExpectedOverage(long averageBytes, long units, long cents) {

    static final long GIB = 1L << 30;
    static final long ALLOWANCE_BYTES = 100 * GIB;
    static final long UNIT_BYTES = 10 * GIB;
    static final long UNIT_CENTS = 200;

    /** A paid plan's terms, written out here apart from the plans table: its price, allowance and overage unit. */
    enum Terms {
        PRO("pro", 2_000, ALLOWANCE_BYTES, UNIT_BYTES, UNIT_CENTS),
        TEAM("team", 10_000, 1024 * GIB, 100 * GIB, 1_500);

        final String tier;
        final long priceCents;
        final long allowanceBytes;
        final long unitBytes;
        final long unitCents;

        Terms(String tier, long priceCents, long allowanceBytes, long unitBytes, long unitCents) {
            this.tier = tier;
            this.priceCents = priceCents;
            this.allowanceBytes = allowanceBytes;
            this.unitBytes = unitBytes;
            this.unitCents = unitCents;
        }
    }

    /** A sample the service accepted: {@code second} is its {@code at} truncated to the whole second. */
    record Sample(String id, UUID project, long bytes, long second) {}

    /** The overage on pro of the accepted samples over {@code [start, end)} (epoch seconds, start before end). */
    static ExpectedOverage of(Collection<Sample> accepted, long start, long end) {
        return of(accepted, start, end, Terms.PRO);
    }

    /** The overage on the plan of these terms of the accepted samples over {@code [start, end)}. */
    static ExpectedOverage of(Collection<Sample> accepted, long start, long end, Terms terms) {
        if (end <= start) {
            throw new IllegalArgumentException("an empty period: " + start + " - " + end);
        }
        Map<UUID, NavigableMap<Long, Long>> steps = new HashMap<>();
        for (Sample sample : accepted) {
            Long clash = steps.computeIfAbsent(sample.project(), p -> new TreeMap<>())
                    .put(sample.second(), sample.bytes());
            if (clash != null) {
                // the soak never reports two samples of one project in one second: their order would be a guess
                throw new IllegalStateException(
                        "two samples of project " + sample.project() + " at " + sample.second());
            }
        }
        BigInteger byteSeconds = BigInteger.ZERO;
        for (NavigableMap<Long, Long> project : steps.values()) {
            byteSeconds = byteSeconds.add(integral(project, start, end));
        }
        long average = byteSeconds.divide(BigInteger.valueOf(end - start)).longValueExact();
        long above = Math.max(0, average - terms.allowanceBytes);
        long units = above / terms.unitBytes + (above % terms.unitBytes == 0 ? 0 : 1);
        return new ExpectedOverage(average, units, units * terms.unitCents);
    }

    /** The integral of one project's step function over {@code [start, end)}. */
    private static BigInteger integral(NavigableMap<Long, Long> samples, long start, long end) {
        Map.Entry<Long, Long> before = samples.floorEntry(start);
        long value = before == null ? 0 : before.getValue();
        long from = start;
        BigInteger sum = BigInteger.ZERO;
        for (Map.Entry<Long, Long> change :
                samples.subMap(start, false, end, false).entrySet()) {
            sum = sum.add(BigInteger.valueOf(value).multiply(BigInteger.valueOf(change.getKey() - from)));
            from = change.getKey();
            value = change.getValue();
        }
        return sum.add(BigInteger.valueOf(value).multiply(BigInteger.valueOf(end - from)));
    }
}
