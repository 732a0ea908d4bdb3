package com.kvportal.webhooks;

import com.kvportal.webhooks.delivery.DeliveryWorker;
import com.kvportal.webhooks.delivery.StoredDeliveries;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes an event and a delivery per subscribed endpoint in the caller's transaction (the outbox): they exist if and
 * only if the change commits, and the deliveries start right after the commit, never while a request waits. Other
 * features publish their own domain events, which {@link EventWiring} turns into these.
 */
@Service
@RequiredArgsConstructor
public class OutgoingEvents {

    private final StoredEndpoints endpoints;
    private final StoredDeliveries deliveries;
    private final DeliveryWorker worker;
    private final JsonMapper json;
    private final Clock clock;

    /**
     * Queues the event for the organization's endpoints subscribed to its type; nothing when none is.
     *
     * @param data the object concerned as the API shows it; never a raw key, digest, token or password
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void publish(UUID organizationId, String type, Object data) {
        List<UUID> subscribed = endpoints.subscribed(organizationId, type);
        if (!subscribed.isEmpty()) {
            String eventId = write(organizationId, type, data);
            subscribed.forEach(endpoint -> deliveries.insertDelivery(endpoint, eventId));
            deliverAfterCommit();
        }
    }

    /** A delivery queued: its event (the webhook-id) and its id in the endpoint's log. */
    record Queued(String eventId, UUID deliveryId) {}

    /** Queues the event for this one endpoint, whatever its event filter (the test event). */
    @Transactional(propagation = Propagation.MANDATORY)
    Queued publishTo(UUID organizationId, UUID endpointId, String type, Object data) {
        String eventId = write(organizationId, type, data);
        UUID deliveryId = deliveries.insertDelivery(endpointId, eventId);
        deliverAfterCommit();
        return new Queued(eventId, deliveryId);
    }

    private String write(UUID organizationId, String type, Object data) {
        String id = "msg_" + UUID.randomUUID().toString().replace("-", "");
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", id);
        body.put("type", type);
        body.put("created_at", now);
        body.put("organization_id", organizationId);
        body.put("data", data);
        deliveries.insertEvent(id, organizationId, type, json.writeValueAsString(body), now);
        return id;
    }

    void deliverAfterCommit() {
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                worker.soon();
            }
        });
    }
}
