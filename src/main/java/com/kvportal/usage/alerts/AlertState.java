package com.kvportal.usage.alerts;

import com.kvportal.usage.UsageLimits;
import com.kvportal.usage.WriteRefusal;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What an organization was last alerted about, and the rules that move it on with each evaluation of
 * its storage.
 *
 * @param crossedPercent the thresholds crossed and alerted about, not re-armed since, ascending
 * @param writesRefused why writes were last announced as refused; null: they were last known allowed
 */
public record AlertState(List<Integer> crossedPercent, @Nullable WriteRefusal writesRefused) {

    /** An organization never evaluated: no threshold crossed, writes allowed. */
    static final AlertState INITIAL = new AlertState(List.of(), null);

    /** A crossed threshold is armed again once storage falls this far below it (percent of the allowance). */
    static final int REARM_PERCENT = 5;

    public AlertState {
        crossedPercent = crossedPercent.stream().sorted().toList();
    }

    /** Writes started or stopped being refused. */
    enum WritesChange {
        REFUSED,
        ALLOWED
    }

    /**
     * The state after an evaluation and the alerts due on the way.
     *
     * @param crossed the thresholds crossed by this evaluation, ascending (one sample may cross several)
     * @param writes whether writes started or stopped being refused; null: neither
     */
    record Step(AlertState next, List<Integer> crossed, @Nullable WritesChange writes) {}

    /**
     * Moves the state on to the organization's storage now: a threshold (percent of the allowance) is crossed when
     * storage rises to it while armed, and re-armed once storage falls below it by {@value #REARM_PERCENT} % of the
     * allowance; a threshold no longer among the limits is forgotten (no alert for it). Writes are announced when
     * they start being refused and when they are allowed again; a change of reason while they stay refused is kept
     * without an announcement. Without an allowance (0 bytes) no threshold means anything, and none is crossed.
     */
    Step next(List<Integer> thresholds, long allowanceBytes, long usedBytes, @Nullable WriteRefusal refusal) {
        List<Integer> stillCrossed = new ArrayList<>();
        List<Integer> crossed = new ArrayList<>();
        for (int threshold : thresholds.stream().sorted().toList()) {
            boolean wasCrossed = crossedPercent.contains(threshold);
            if (allowanceBytes <= 0) {
                if (wasCrossed) {
                    stillCrossed.add(threshold);
                }
            } else if (!wasCrossed && reached(usedBytes, threshold, allowanceBytes)) {
                crossed.add(threshold);
                stillCrossed.add(threshold);
            } else if (wasCrossed && !rearmed(usedBytes, threshold, allowanceBytes)) {
                stillCrossed.add(threshold);
            }
        }
        WritesChange writes = writesRefused == null && refusal != null
                ? WritesChange.REFUSED
                : writesRefused != null && refusal == null ? WritesChange.ALLOWED : null;
        return new Step(new AlertState(stillCrossed, refusal), crossed, writes);
    }

    /** {@code used ≥ percent % of allowance}, exactly: {@code 100 × used ≥ percent × allowance}. */
    static boolean reached(long usedBytes, int percent, long allowanceBytes) {
        return usedBytes >= UsageLimits.thresholdBytes(percent, allowanceBytes);
    }

    /** {@code 100 × used < (percent − 5) × allowance}: never for a threshold of 5 % or less (storage is ≥ 0). */
    static boolean rearmed(long usedBytes, int percent, long allowanceBytes) {
        int below = percent - REARM_PERCENT;
        return below > 0 && usedBytes < UsageLimits.thresholdBytes(below, allowanceBytes);
    }
}
