package com.kvportal.sandbox.store;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A subscription schedule: the phases its subscription follows, one price each, in order and back to back.
 *
 * @param subscription the subscription it governs; null once released
 * @param releasedSubscription the subscription it governed until it was released
 */
public record StoredSchedule(
        String id,
        String customer,
        @Nullable String subscription,
        String status,
        String endBehavior,
        List<Phase> phases,
        @Nullable String releasedSubscription,
        @Nullable Long releasedAt,
        @Nullable Long canceledAt,
        @Nullable Long completedAt,
        Map<String, String> metadata,
        long created) {

    /**
     * One phase: {@code price} from {@code startDate} until {@code endDate}; trialing until {@code trialEnd} when that
     * is set (the phase of a trialing subscription keeps its trial's end).
     */
    public record Phase(long startDate, long endDate, String price, long quantity, @Nullable Long trialEnd) {}

    public StoredSchedule {
        phases = List.copyOf(phases);
    }

    /** Whether it still governs its subscription (not started yet or running). */
    public boolean governs() {
        return status.equals("not_started") || status.equals("active");
    }

    /** The phase that runs at {@code at}; null before the first and after the last. */
    public @Nullable Phase phaseAt(long at) {
        return phases.stream()
                .filter(phase -> phase.startDate() <= at && at < phase.endDate())
                .findFirst()
                .orElse(null);
    }

    /** The end of its last phase. */
    public long end() {
        return phases.isEmpty() ? created : phases.get(phases.size() - 1).endDate();
    }

    public StoredSchedule withPhases(List<Phase> phases, String endBehavior) {
        return new StoredSchedule(
                id,
                customer,
                subscription,
                status,
                endBehavior,
                phases,
                releasedSubscription,
                releasedAt,
                canceledAt,
                completedAt,
                metadata,
                created);
    }

    /** Released at {@code at}: the subscription goes on by itself, as it is. */
    public StoredSchedule released(long at) {
        return new StoredSchedule(
                id,
                customer,
                null,
                "released",
                endBehavior,
                phases,
                subscription,
                at,
                canceledAt,
                completedAt,
                metadata,
                created);
    }

    /** Canceled at {@code at} (its subscription is canceled with it). */
    public StoredSchedule canceled(long at) {
        return new StoredSchedule(
                id,
                customer,
                subscription,
                "canceled",
                endBehavior,
                phases,
                releasedSubscription,
                releasedAt,
                at,
                completedAt,
                metadata,
                created);
    }
}
