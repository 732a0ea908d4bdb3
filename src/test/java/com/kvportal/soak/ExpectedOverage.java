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
 * length, rounded down; the overage is {@code ceil(max(0, floor(average) - 100 GiB) / 10 GiB)} units of 200 cents.
 */
record ExpectedOverage(long averageBytes, long units, long cents) {

    static final long GIB = 1L << 30;
    static final long ALLOWANCE_BYTES = 100 * GIB;
    static final long UNIT_BYTES = 10 * GIB;
    static final long UNIT_CENTS = 200;

    /** A sample the service accepted: {@code second} is its {@code at} truncated to the whole second. */
    record Sample(String id, UUID project, long bytes, long second) {}

    /** The overage of the accepted samples over {@code [start, end)} (epoch seconds, start before end). */
    static ExpectedOverage of(Collection<Sample> accepted, long start, long end) {
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
        long above = Math.max(0, average - ALLOWANCE_BYTES);
        long units = above / UNIT_BYTES + (above % UNIT_BYTES == 0 ? 0 : 1);
        return new ExpectedOverage(average, units, units * UNIT_CENTS);
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
