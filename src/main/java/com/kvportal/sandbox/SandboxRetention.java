package com.kvportal.sandbox;

import com.kvportal.sandbox.api.IdempotencyKeys;
import com.kvportal.sandbox.events.EventOutbox;
import java.util.concurrent.TimeUnit;
import lombok.RequiredArgsConstructor;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/** Forgets what Stripe forgets: idempotency keys after 24 hours, delivered events after 30 days. */
@Component
@RequiredArgsConstructor
class SandboxRetention {

    private final IdempotencyKeys idempotencyKeys;
    private final EventOutbox outbox;

    @Scheduled(fixedDelay = 1, initialDelay = 1, timeUnit = TimeUnit.HOURS)
    void forgetOldRecords() {
        idempotencyKeys.forgetAfter24Hours();
        outbox.forgetDeliveredAfter30Days();
    }
}
