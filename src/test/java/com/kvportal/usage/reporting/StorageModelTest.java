package com.kvportal.usage.reporting;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.billing.Plan;
import com.kvportal.billing.Tier;
import com.kvportal.usage.reporting.StorageModel.Overage;
import com.kvportal.usage.reporting.StorageModel.Period;
import com.kvportal.usage.reporting.StorageModel.Sample;
import com.kvportal.usage.reporting.StorageModel.Timeline;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StorageModelTest {

    static final long GIB = 1L << 30;
    static final Plan FREE = new Plan(UUID.randomUUID(), "Free", Tier.FREE, GIB, 0, 0, 0);
    static final Plan PRO = new Plan(UUID.randomUUID(), "Pro", Tier.PRO, 100 * GIB, 2000, 10 * GIB, 200);

    static final Instant START = Instant.parse("2026-11-21T00:00:00Z");
    static final Period NOVEMBER_TO_DECEMBER = new Period(START, Instant.parse("2026-12-21T00:00:00Z"));

    @Test
    void anOrganizationWithoutSamplesStoresNothingAndOwesNothing() {
        Overage overage = StorageModel.overage(NOVEMBER_TO_DECEMBER, List.of(), PRO);

        assertThat(overage).isEqualTo(new Overage(0, 0, 0));
    }

    @Test
    void oneSampleBeforeThePeriodHoldsForTheWholePeriod() {
        List<Sample> project = List.of(new Sample(START.minus(Duration.ofDays(3)), 150 * GIB));

        Overage overage = StorageModel.overage(NOVEMBER_TO_DECEMBER, List.of(project), PRO);

        assertThat(overage).isEqualTo(new Overage(150 * GIB, 5, 1000));
    }

    @Test
    void beforeItsFirstSampleAProjectStoresNothing() {
        // 200 GiB for the second half of a 30-day period: 100 GiB on average, exactly the allowance
        Instant half = START.plus(Duration.ofDays(15));
        List<Sample> project = List.of(new Sample(half, 200 * GIB));

        Overage overage = StorageModel.overage(NOVEMBER_TO_DECEMBER, List.of(project), PRO);

        assertThat(overage).isEqualTo(new Overage(100 * GIB, 0, 0));
    }

    @Test
    void samplesStraddlingBothEndsCountOnlyInsideThePeriod() {
        Instant end = NOVEMBER_TO_DECEMBER.end();
        List<Sample> project = List.of(
                new Sample(START.minus(Duration.ofDays(1)), 100 * GIB), // holds from the start
                new Sample(START.plus(Duration.ofDays(10)), 130 * GIB), // days 10-20
                new Sample(START.plus(Duration.ofDays(20)), 160 * GIB), // days 20-30
                new Sample(end, 1000 * GIB), // the next period's
                new Sample(end.plus(Duration.ofDays(2)), 0));

        Overage overage = StorageModel.overage(NOVEMBER_TO_DECEMBER, List.of(project), PRO);

        // (100 + 130 + 160) / 3 = 130 GiB: 30 GiB above, 3 units
        assertThat(overage).isEqualTo(new Overage(130 * GIB, 3, 600));
    }

    @Test
    void theOrganizationsStorageIsTheSumOfItsProjects() {
        List<Sample> first = List.of(new Sample(START, 60 * GIB));
        List<Sample> second =
                List.of(new Sample(START, 40 * GIB), new Sample(START.plus(Duration.ofDays(15)), 80 * GIB));
        List<Sample> third = List.of(new Sample(START.minus(Duration.ofDays(40)), 5 * GIB));

        Overage overage = StorageModel.overage(NOVEMBER_TO_DECEMBER, List.of(first, second, third), PRO);

        // 60 + (40 + 80) / 2 + 5 = 125 GiB: 25 GiB above, 3 units (rounded up)
        assertThat(overage).isEqualTo(new Overage(125 * GIB, 3, 600));
    }

    @ParameterizedTest(name = "a {0}-day period weighs each day one {0}th")
    @CsvSource({
        // 100 GiB all month, plus 280 GiB more for one day of 28: 10 GiB more on average, one unit
        "28, 2027-02-01T00:00:00Z, 2027-03-01T00:00:00Z, 2027-02-10T00:00:00Z, 280",
        // 310 GiB more for one day of 31: exactly 10 GiB more on average, one unit
        "31, 2026-12-01T00:00:00Z, 2027-01-01T00:00:00Z, 2026-12-31T00:00:00Z, 310"
    })
    void aPeriodWeighsEachDayByTheNumberOfItsDays(
            int days, Instant start, Instant end, Instant burstDay, long burstGib) {
        Period period = new Period(start, end);
        assertThat(period.seconds()).isEqualTo(days * 86_400);
        List<Sample> base = List.of(new Sample(period.start(), 100 * GIB));
        List<Sample> burst =
                List.of(new Sample(burstDay, burstGib * GIB), new Sample(burstDay.plus(Duration.ofDays(1)), 0));

        Overage overage = StorageModel.overage(period, List.of(base, burst), PRO);

        assertThat(overage).isEqualTo(new Overage(110 * GIB, 1, 200));
    }

    @Test
    void anAverageExactlyAtTheAllowanceOwesNothing() {
        assertThat(StorageModel.overage(100 * GIB, PRO)).isEqualTo(new Overage(100 * GIB, 0, 0));
    }

    @Test
    void oneByteAboveTheAllowanceOwesAWholeUnit() {
        assertThat(StorageModel.overage(100 * GIB + 1, PRO)).isEqualTo(new Overage(100 * GIB + 1, 1, 200));
        assertThat(StorageModel.overage(110 * GIB, PRO)).isEqualTo(new Overage(110 * GIB, 1, 200));
        assertThat(StorageModel.overage(110 * GIB + 1, PRO)).isEqualTo(new Overage(110 * GIB + 1, 2, 400));
    }

    @Test
    void theAverageIsRoundedDownToAWholeByteBeforeTheAllowanceIsSubtracted() {
        // one second at allowance + 1 and one at the allowance: an average of allowance + 0.5, floored
        Period twoSeconds = new Period(START, START.plusSeconds(2));
        List<Sample> project = List.of(new Sample(START, 100 * GIB + 1), new Sample(START.plusSeconds(1), 100 * GIB));

        assertThat(StorageModel.overage(twoSeconds, List.of(project), PRO)).isEqualTo(new Overage(100 * GIB, 0, 0));
    }

    @Test
    void aPlanWithoutOverageNeverOwesAny() {
        List<Sample> project = List.of(new Sample(START, 500 * GIB));

        assertThat(StorageModel.overage(NOVEMBER_TO_DECEMBER, List.of(project), FREE))
                .isEqualTo(new Overage(500 * GIB, 0, 0));
    }

    @Test
    void ofTwoSamplesAtTheSameSecondTheLaterOneWins() {
        List<Sample> project = List.of(new Sample(START, 7), new Sample(START, 3));

        assertThat(Timeline.of(List.of(project)).at(START.plusSeconds(5))).isEqualTo(3);
    }

    @Test
    void thePeakOfADayIsItsHighestStorageAndCountsTheValueHeldAtItsStart() {
        Timeline timeline = Timeline.of(List.of(List.of(
                new Sample(START.minusSeconds(10), 50),
                new Sample(START.plusSeconds(100), 90),
                new Sample(START.plusSeconds(200), 10))));
        Instant dayEnd = START.plus(Duration.ofDays(1));

        assertThat(timeline.peak(START, dayEnd)).isEqualTo(90);
        assertThat(timeline.peak(START.plusSeconds(300), dayEnd)).isEqualTo(10);
        assertThat(timeline.peak(START, START.plusSeconds(100))).isEqualTo(50);
        assertThat(timeline.average(START, START.plusSeconds(300))).isEqualTo((50 * 100 + 90 * 100 + 10 * 100) / 300);
    }

    @Test
    void averagesOfPetabytesOverAMonthDoNotOverflow() {
        long petabyte = 1L << 50;
        List<Sample> project = List.of(new Sample(START, petabyte));

        assertThat(StorageModel.overage(NOVEMBER_TO_DECEMBER, List.of(project), PRO)
                        .averageBytes())
                .isEqualTo(petabyte);
    }
}
