package com.kvportal.sandbox;

import com.stripe.Stripe;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import tools.jackson.databind.json.JsonMapper;

/**
 * Records Stripe events in the outbox within the transaction of the change they describe, and wakes the delivery
 * worker once that transaction has committed and the request has been answered, so that an event never leaves
 * before its cause is durable (the worker's poll picks up anything a wake-up misses).
 */
@Component
@SandboxMode
class SandboxEvents {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final EventOutbox outbox;
    private final WebhookDelivery delivery;
    private final Clock clock;

    SandboxEvents(EventOutbox outbox, WebhookDelivery delivery, Clock clock) {
        this.outbox = outbox;
        this.delivery = delivery;
        this.clock = clock;
    }

    /** Records the event and answers its id. */
    String emit(String type, Map<String, Object> object) {
        return emit(type, object, null);
    }

    /** An event whose {@code data.object} is the object as it is now and {@code previous_attributes} what changed. */
    String emit(String type, Map<String, Object> object, @Nullable Map<String, Object> previousAttributes) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("events are recorded within the transaction of their cause");
        }
        String id = StripeIds.event();
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("object", object);
        if (previousAttributes != null) {
            data.put("previous_attributes", previousAttributes);
        }
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("id", null);
        request.put("idempotency_key", null);
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("id", id);
        event.put("object", "event");
        event.put("api_version", Stripe.API_VERSION);
        event.put("created", clock.instant().getEpochSecond());
        event.put("data", data);
        event.put("livemode", false);
        event.put("pending_webhooks", 1);
        event.put("request", request);
        event.put("type", type);
        outbox.insert(id, type, JSON.writeValueAsString(event));
        wakeAfterCommit();
        return id;
    }

    /** The top-level fields whose values differ, with their values before: Stripe's {@code previous_attributes}. */
    static Map<String, Object> changes(Map<String, Object> before, Map<String, Object> after) {
        Map<String, Object> previous = new LinkedHashMap<>();
        before.forEach((key, value) -> {
            if (!Objects.equals(value, after.get(key))) {
                previous.put(key, value);
            }
        });
        return previous;
    }

    /** Within a web request, the worker is woken once the request is done, so that its answer goes out first. */
    private void wakeAfterResponse() {
        RequestAttributes request = RequestContextHolder.getRequestAttributes();
        if (request == null) {
            delivery.wake();
        } else {
            request.registerDestructionCallback(
                    SandboxEvents.class.getName() + ".wake", delivery::wake, RequestAttributes.SCOPE_REQUEST);
        }
    }

    private void wakeAfterCommit() {
        if (TransactionSynchronizationManager.isSynchronizationActive()
                && !TransactionSynchronizationManager.hasResource(this)) {
            TransactionSynchronizationManager.bindResource(this, Boolean.TRUE);
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCompletion(int status) {
                    TransactionSynchronizationManager.unbindResourceIfPossible(SandboxEvents.this);
                    if (status == STATUS_COMMITTED) {
                        wakeAfterResponse();
                    }
                }
            });
        }
    }
}
