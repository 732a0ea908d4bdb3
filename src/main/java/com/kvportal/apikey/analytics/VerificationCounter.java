package com.kvportal.apikey.analytics;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.springframework.stereotype.Component;

/**
 * Counts verifies in memory, per key, minute (UTC) and {@link Outcome}, without a lock or a write on verify's path: a
 * {@link LongAdder} per outcome in a cell per key and minute. {@link VerificationFlush} takes the counts every few
 * seconds ({@link #drain}) and writes them in one transaction.
 *
 * <p>Exact under concurrency: a count is taken by exactly one {@link LongAdder#sumThenReset} (it swaps each part to
 * zero). A cell of a past minute is retired when drained: taken out of the map first, then marked, then drained. A
 * verify that added to a cell checks the mark afterwards; if it is set, it takes back what the drain may have missed
 * and adds it to the cell now in the map, so nothing added to a retired cell is lost or counted twice.
 */
@Component
public class VerificationCounter {

    private final ConcurrentHashMap<CellKey, Cell> cells = new ConcurrentHashMap<>();
    private final Clock clock;
    private final AnalyticsProperties properties;

    VerificationCounter(Clock clock, AnalyticsProperties properties) {
        this.clock = clock;
        this.properties = properties;
    }

    /** The key and its minute, as minutes since the epoch. */
    record CellKey(UUID keyId, long minute) {}

    private static final class Cell {
        final LongAdder[] counts = new LongAdder[Outcome.all().length];
        volatile boolean retired;

        Cell() {
            for (int i = 0; i < counts.length; i++) {
                counts[i] = new LongAdder();
            }
        }
    }

    /** What one cell held when drained: the counts by outcome ordinal. */
    record Counted(UUID keyId, long minute, long[] counts) {}

    /** One verify of a known key, answered with this outcome. Never blocks, never touches the database. */
    public void count(UUID keyId, Outcome outcome) {
        if (properties.counting()) {
            add(new CellKey(keyId, clock.millis() / 60_000), outcome.ordinal(), 1);
        }
    }

    private void add(CellKey key, int outcome, long amount) {
        long pending = amount;
        while (pending != 0) {
            Cell cell = cells.computeIfAbsent(key, k -> new Cell());
            cell.counts[outcome].add(pending);
            if (!cell.retired) {
                return;
            }
            // the cell was drained as we added: take back whatever the drain did not take, into the current cell
            pending = cell.counts[outcome].sumThenReset();
        }
    }

    /** Puts counts back (a flush that failed), to be written by the next one. */
    void restore(List<Counted> counted) {
        for (Counted c : counted) {
            for (int i = 0; i < c.counts().length; i++) {
                if (c.counts()[i] != 0) {
                    add(new CellKey(c.keyId(), c.minute()), i, c.counts()[i]);
                }
            }
        }
    }

    /**
     * Takes every count held so far: cells of the current minute stay (emptied), those of past minutes are retired.
     */
    List<Counted> drain() {
        long currentMinute = clock.millis() / 60_000;
        List<Counted> drained = new ArrayList<>();
        for (Map.Entry<CellKey, Cell> entry : cells.entrySet()) {
            CellKey key = entry.getKey();
            Cell cell = entry.getValue();
            if (key.minute() < currentMinute && cells.remove(key, cell)) {
                cell.retired = true;
            }
            long[] counts = new long[cell.counts.length];
            boolean any = false;
            for (int i = 0; i < counts.length; i++) {
                counts[i] = cell.counts[i].sumThenReset();
                any |= counts[i] != 0;
            }
            if (any) {
                drained.add(new Counted(key.keyId(), key.minute(), counts));
            }
        }
        return drained;
    }
}
