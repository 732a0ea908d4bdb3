package com.kvportal.usage.alerts;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.usage.WriteRefusal;
import com.kvportal.usage.alerts.AlertState.Step;
import com.kvportal.usage.alerts.AlertState.WritesChange;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The rules of usage alerts, on the state alone: crossings, re-arming, removed thresholds, writes. */
class AlertStateTest {

    static final long ALLOWANCE = 1L << 30;
    static final List<Integer> DEFAULTS = List.of(75, 90, 100);

    @Test
    void oneSampleCrossesEveryThresholdItPassesOnce() {
        Step step = AlertState.INITIAL.next(DEFAULTS, ALLOWANCE, ALLOWANCE, null);

        assertThat(step.crossed()).containsExactly(75, 90, 100);
        assertThat(step.next().crossedPercent()).containsExactly(75, 90, 100);
        assertThat(step.next().next(DEFAULTS, ALLOWANCE, ALLOWANCE * 2, null).crossed())
                .isEmpty();
    }

    @Test
    void aThresholdIsReachedExactlyAtItsShareOfTheAllowance() {
        long threeQuarters = ALLOWANCE / 4 * 3;
        assertThat(AlertState.INITIAL
                        .next(DEFAULTS, ALLOWANCE, threeQuarters - 1, null)
                        .crossed())
                .isEmpty();
        assertThat(AlertState.INITIAL
                        .next(DEFAULTS, ALLOWANCE, threeQuarters, null)
                        .crossed())
                .containsExactly(75);
    }

    /** 33 % of 1000 bytes is 330; of 1001 bytes 330.33, reached at 331. */
    @ParameterizedTest
    @CsvSource({"330, 33, 1000, true", "330, 33, 1001, false", "331, 33, 1001, true"})
    void aThresholdsShareIsRoundedUpToAWholeByte(long usedBytes, int percent, long allowance, boolean reached) {
        assertThat(AlertState.reached(usedBytes, percent, allowance)).isEqualTo(reached);
    }

    @Test
    void aCrossedThresholdIsReArmedOnlyOnceStorageFallsFivePercentOfTheAllowanceBelowIt() {
        AlertState crossed = AlertState.INITIAL.next(DEFAULTS, 1000, 800, null).next();
        assertThat(crossed.crossedPercent()).containsExactly(75);

        // 700 is 70 %: not below 75 % by 5 % yet
        AlertState at70 = crossed.next(DEFAULTS, 1000, 700, null).next();
        assertThat(at70.crossedPercent()).containsExactly(75);
        assertThat(at70.next(DEFAULTS, 1000, 800, null).crossed()).isEmpty();

        AlertState below70 = crossed.next(DEFAULTS, 1000, 699, null).next();
        assertThat(below70.crossedPercent()).isEmpty();
        assertThat(below70.next(DEFAULTS, 1000, 750, null).crossed()).containsExactly(75);
    }

    @Test
    void aThresholdOfFivePercentOrLessIsNeverReArmed() {
        AlertState crossed = AlertState.INITIAL.next(List.of(5), 1000, 50, null).next();
        assertThat(crossed.next(List.of(5), 1000, 0, null).next().crossedPercent())
                .containsExactly(5);
    }

    /** 6 % of 1000 bytes re-arms below 10 bytes; 5 % never (storage cannot fall below 0). */
    @ParameterizedTest
    @CsvSource({"0, 5, 1000, false", "9, 6, 1000, true", "10, 6, 1000, false"})
    void aThresholdIsReArmedFivePercentOfTheAllowanceBelowIt(
            long usedBytes, int percent, long allowance, boolean rearmed) {
        assertThat(AlertState.rearmed(usedBytes, percent, allowance)).isEqualTo(rearmed);
    }

    @Test
    void aRemovedThresholdRaisesNothingAndIsForgotten() {
        Step step = AlertState.INITIAL.next(List.of(90), 1000, 800, null);
        assertThat(step.crossed()).isEmpty();

        AlertState crossed = AlertState.INITIAL.next(DEFAULTS, 1000, 950, null).next();
        AlertState removed = crossed.next(List.of(90), 1000, 950, null).next();
        assertThat(removed.crossedPercent()).containsExactly(90);
        assertThat(removed.next(List.of(), 1000, 1000, null).crossed()).isEmpty();
    }

    @Test
    void withoutAnAllowanceNoThresholdIsCrossed() {
        assertThat(AlertState.INITIAL.next(DEFAULTS, 0, 10, null).crossed()).isEmpty();
    }

    @Test
    void writesAreAnnouncedWhenTheyStartAndStopBeingRefusedNotWhenTheReasonChanges() {
        Step refused = AlertState.INITIAL.next(List.of(), 1000, 1000, WriteRefusal.ALLOWANCE_REACHED);
        assertThat(refused.writes()).isEqualTo(WritesChange.REFUSED);

        Step otherReason = refused.next().next(List.of(), 1000, 1000, WriteRefusal.STORAGE_CAP);
        assertThat(otherReason.writes()).isNull();
        assertThat(otherReason.next().writesRefused()).isEqualTo(WriteRefusal.STORAGE_CAP);

        Step allowed = otherReason.next().next(List.of(), 1000, 10, null);
        assertThat(allowed.writes()).isEqualTo(WritesChange.ALLOWED);
        assertThat(allowed.next()).isEqualTo(AlertState.INITIAL);
        assertThat(allowed.next().next(List.of(), 1000, 10, null).writes()).isNull();
    }
}
