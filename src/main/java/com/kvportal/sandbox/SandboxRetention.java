package com.kvportal.sandbox;

import com.kvportal.common.scheduling.PeriodicJob;
import com.kvportal.sandbox.api.IdempotentAnswers;
import com.kvportal.sandbox.events.EventOutbox;
import java.time.Duration;
import lombok.RequiredArgsConstructor;
import org.springframework.stereotype.Component;

/** Forgets what Stripe forgets, every hour: idempotency keys after 24 hours, delivered events after 30 days. */
@Component
@RequiredArgsConstructor
class SandboxRetention implements PeriodicJob {

    private final IdempotentAnswers idempotentAnswers;
    private final EventOutbox outbox;

    @Override
    public Schedule schedule() {
        return Schedule.every("sandbox-retention", Duration.ofHours(1), this::forgetOldRecords);
    }

    void forgetOldRecords() {
        idempotentAnswers.forgetAfter24Hours();
        outbox.forgetDeliveredAfter30Days();
    }
}
