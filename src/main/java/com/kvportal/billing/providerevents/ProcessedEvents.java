package com.kvportal.billing.providerevents;

import lombok.RequiredArgsConstructor;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of processed_webhook_events: the ids of the events whose effect has been applied. */
@Repository
@RequiredArgsConstructor
public class ProcessedEvents {

    private final JdbcClient jdbc;

    /**
     * Records the event in the current transaction. A concurrent delivery of the same event waits here until
     * the first one's transaction ends, and then finds it recorded (or, if it rolled back, records it itself).
     *
     * @return false when the event was applied already
     */
    public boolean record(String eventId, String type) {
        return jdbc.sql("insert into processed_webhook_events (event_id, type) values (?, ?) on conflict do nothing")
                        .params(eventId, type)
                        .update()
                > 0;
    }

    public boolean contains(String eventId) {
        return jdbc.sql("select exists (select 1 from processed_webhook_events where event_id = ?)")
                .param(eventId)
                .query(Boolean.class)
                .single();
    }
}
