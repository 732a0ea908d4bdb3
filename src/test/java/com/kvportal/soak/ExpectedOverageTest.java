package com.kvportal.soak;

import static com.kvportal.soak.ExpectedOverage.ALLOWANCE_BYTES;
import static com.kvportal.soak.ExpectedOverage.GIB;
import static com.kvportal.soak.ExpectedOverage.UNIT_BYTES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.kvportal.soak.ExpectedOverage.Sample;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The soak's own reading of docs/billing.md, How the overage is computed, checked by hand-computed cases before it judges the service. */
class ExpectedOverageTest {

    static final UUID A = UUID.randomUUID();
    static final UUID B = UUID.randomUUID();

    static Sample sample(UUID project, long bytes, long second) {
        return new Sample(UUID.randomUUID().toString(), project, bytes, second);
    }

    @ParameterizedTest(name = "{0} bytes above the allowance: {1} units")
    @CsvSource({"-1, 0", "0, 0", "1, 1", "10737418239, 1", "10737418240, 1", "10737418241, 2", "53687091200, 5"})
    void shouldCountUnitsAboveTheAllowanceRoundedUp(long above, long units) {
        ExpectedOverage overage = ExpectedOverage.of(List.of(sample(A, ALLOWANCE_BYTES + above, -10)), 0, 1000);

        assertThat(overage.averageBytes()).isEqualTo(ALLOWANCE_BYTES + above);
        assertThat(overage.units()).isEqualTo(units);
        assertThat(overage.cents()).isEqualTo(units * 200);
    }

    @Test
    void shouldIntegrateEachProjectsStepFunctionFromItsLatestSampleAtOrBeforeTheStart() {
        List<Sample> samples = List.of(
                sample(A, 999 * GIB, -50), // replaced before the start
                sample(A, 60 * GIB, -1),
                sample(B, 40 * GIB, 0), // at the start: counts from it
                sample(B, 240 * GIB, 50), // half of the period
                sample(A, 999 * GIB, 100)); // at the end: outside

        ExpectedOverage overage = ExpectedOverage.of(samples, 0, 100);

        // A 60 GiB throughout; B 40 GiB for 50 s, 240 GiB for 50 s: 60 + 140 = 200 GiB
        assertThat(overage.averageBytes()).isEqualTo(200 * GIB);
        assertThat(overage.units()).isEqualTo(10);
    }

    @Test
    void shouldRoundTheAverageDownBeforeCountingUnits() {
        long boundary = ALLOWANCE_BYTES + UNIT_BYTES;
        // one second a byte above the boundary, two seconds on it: the average is a third of a byte above, floored
        List<Sample> samples = List.of(sample(A, boundary + 1, 0), sample(A, boundary, 1));

        ExpectedOverage overage = ExpectedOverage.of(samples, 0, 3);

        assertThat(overage.averageBytes()).isEqualTo(boundary);
        assertThat(overage.units()).isEqualTo(1);
    }

    @Test
    void shouldCountNothingBeforeAProjectsFirstSample() {
        ExpectedOverage overage = ExpectedOverage.of(List.of(sample(A, 300 * GIB, 75)), 0, 100);

        assertThat(overage.averageBytes()).isEqualTo(75 * GIB);
        assertThat(overage.units()).isZero();
    }

    @Test
    void shouldRefuseTwoSamplesOfOneProjectInOneSecond() {
        assertThatThrownBy(() -> ExpectedOverage.of(List.of(sample(A, 1, 5), sample(A, 2, 5)), 0, 10))
                .isInstanceOf(IllegalStateException.class);
    }

    @ParameterizedTest(name = "team, {0} bytes above 1 TiB: {1} units of $15")
    @CsvSource({"0, 0", "1, 1", "107374182400, 1", "107374182401, 2"})
    void shouldCountTeamUnitsOf100GiBAbove1TiB(long above, long units) {
        ExpectedOverage overage =
                ExpectedOverage.of(List.of(sample(A, 1024 * GIB + above, -10)), 0, 1000, ExpectedOverage.Terms.TEAM);

        assertThat(overage.units()).isEqualTo(units);
        assertThat(overage.cents()).isEqualTo(units * 1_500);
    }
}
