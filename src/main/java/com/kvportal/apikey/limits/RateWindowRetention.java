package com.kvportal.apikey.limits;

import com.kvportal.common.scheduling.PeriodicJob;
import java.time.Clock;
import java.time.Duration;
import lombok.RequiredArgsConstructor;
import org.springframework.stereotype.Component;

/** Deletes the rows of rate-limit windows that ended more than a day ago (hourly, on every instance: idempotent). */
@Component
@RequiredArgsConstructor
class RateWindowRetention implements PeriodicJob {

    private final RateLeases leases;
    private final Clock clock;

    @Override
    public Schedule schedule() {
        return new Schedule("rate-window-retention", Duration.ofMinutes(1), Duration.ofHours(1), this::purge);
    }

    void purge() {
        leases.deleteEndedBefore(clock.millis() - Duration.ofDays(1).toMillis());
    }
}
