package com.kvportal.support;

import java.time.Duration;
import java.time.OffsetDateTime;
import org.awaitility.Awaitility;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The events the payment sandbox has sent to the webhook since a moment on the database's clock: a test waits for its
 * own events only, as earlier tests' events may still be retried on their own schedule.
 */
public final class SandboxEvents {

    private final JdbcClient jdbc;
    private final OffsetDateTime since;

    private SandboxEvents(JdbcClient jdbc, OffsetDateTime since) {
        this.jdbc = jdbc;
        this.since = since;
    }

    /** The events sent from now on. */
    public static SandboxEvents fromNow(JdbcClient jdbc) {
        return new SandboxEvents(
                jdbc, jdbc.sql("select now()").query(OffsetDateTime.class).single());
    }

    /** Waits until the sandbox has delivered every one of these events. */
    public void awaitDelivered(Duration atMost) {
        Awaitility.await("the sandbox's events are delivered").atMost(atMost).until(() -> undelivered() == 0);
    }

    private long undelivered() {
        return jdbc.sql("select count(*) from sandbox.sandbox_events where delivered_at is null and created_at >= ?")
                .param(since)
                .query(Long.class)
                .single();
    }
}
