package com.kvportal.usage.reporting;

import com.kvportal.usage.StorageStanding;
import com.kvportal.usage.reporting.StoredSamples.Latest;
import com.kvportal.usage.reporting.StoredSamples.Stored;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.springframework.stereotype.Service;

/**
 * Takes in the storage backend's reports: each sample is accepted, a duplicate of one accepted before (the first
 * wins), or rejected ({@code project_not_found}, {@code sample_out_of_range}); a whole batch is one statement.
 */
@Service
public class StorageReporting {

    static final Duration OLDEST = Duration.ofDays(35);
    static final Duration NEWEST = Duration.ofMinutes(5);

    /** A sample that was not stored, and why. */
    @Schema(name = "RejectedSample")
    record Rejection(
            @Schema(description = "The sample's position in the batch, from 0.", minimum = "0") int index,
            String id,
            @Schema(allowableValues = {"project_not_found", "sample_out_of_range"}) String code) {}

    /** What became of a report. */
    @Schema(name = "StorageReportOutcome")
    public record Outcome(
            @Schema(minimum = "0") int accepted, @Schema(minimum = "0") int duplicates, List<Rejection> rejected) {}

    private final StoredSamples samples;
    private final StorageStanding standing;
    private final Clock clock;
    private final Counter acceptedCount;
    private final Counter duplicateCount;
    private final Counter rejectedCount;

    StorageReporting(StoredSamples samples, StorageStanding standing, Clock clock, MeterRegistry meters) {
        this.samples = samples;
        this.standing = standing;
        this.clock = clock;
        this.acceptedCount = counter(meters, "accepted");
        this.duplicateCount = counter(meters, "duplicate");
        this.rejectedCount = counter(meters, "rejected");
    }

    private static Counter counter(MeterRegistry meters, String outcome) {
        return Counter.builder("kvportal.usage.samples")
                .description("Storage samples reported, by what became of them")
                .tag("outcome", outcome)
                .register(meters);
    }

    public Outcome report(List<ReportedSample> batch) {
        Instant now = clock.instant();
        Instant oldest = now.minus(OLDEST);
        Instant newest = now.plus(NEWEST);
        List<Rejection> rejected = new ArrayList<>();
        Map<Integer, ReportedSample> inRange = new LinkedHashMap<>();
        for (int i = 0; i < batch.size(); i++) {
            ReportedSample sample = batch.get(i);
            if (sample.at().isBefore(oldest) || sample.at().isAfter(newest)) {
                rejected.add(new Rejection(i, sample.id(), "sample_out_of_range"));
            } else {
                inRange.put(i, sample);
            }
        }
        int duplicates = 0;
        List<Latest> accepted = new ArrayList<>();
        for (Stored stored : samples.ingest(inRange)) {
            ReportedSample sample = inRange.get(stored.index());
            switch (stored.fate()) {
                case ACCEPTED ->
                    accepted.add(new Latest(
                            sample.projectId(),
                            Objects.requireNonNull(stored.organizationId()),
                            sample.at(),
                            stored.seq(),
                            sample.bytes()));
                case DUPLICATE -> duplicates++;
                case PROJECT_NOT_FOUND -> rejected.add(new Rejection(stored.index(), sample.id(), "project_not_found"));
            }
        }
        standing.apply(accepted);
        rejected.sort(Comparator.comparingInt(Rejection::index));
        acceptedCount.increment(accepted.size());
        duplicateCount.increment(duplicates);
        rejectedCount.increment(rejected.size());
        return new Outcome(accepted.size(), duplicates, rejected);
    }
}
