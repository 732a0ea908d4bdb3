package com.kvportal.sandbox.events;

import com.kvportal.sandbox.stripe.StripeId;
import com.kvportal.sandbox.stripe.StripeJson;
import com.stripe.Stripe;
import com.stripe.model.Event;
import com.stripe.model.StripeObject;
import java.time.Clock;
import java.util.Map;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;

/**
 * Records Stripe events in the outbox within the transaction of the change they describe, and wakes the delivery
 * worker once that transaction has committed and the request has been answered, so that an event never leaves
 * before its cause is durable (the worker's poll picks up anything a wake-up misses).
 */
@Component
@RequiredArgsConstructor
public class SandboxEvents {

    private final EventOutbox outbox;
    private final StripeEventDelivery delivery;
    private final Clock clock;

    /** Records the event and answers its id. */
    public String emit(String type, StripeObject object) {
        return emit(type, object, null);
    }

    /** An event whose {@code data.object} is the object as it is now and {@code previous_attributes} what changed. */
    public String emit(String type, StripeObject object, @Nullable Map<String, Object> previousAttributes) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("events are recorded within the transaction of their cause");
        }
        Event.Data data = new Event.Data();
        data.setObject(StripeJson.tree(object));
        data.setPreviousAttributes(previousAttributes);
        Event event = new Event();
        event.setId(StripeId.EVENT.next());
        event.setObject("event");
        event.setApiVersion(Stripe.API_VERSION);
        event.setCreated(clock.instant().getEpochSecond());
        event.setData(data);
        event.setLivemode(false);
        event.setPendingWebhooks(1L);
        event.setRequest(new Event.Request());
        event.setType(type);
        outbox.insert(event.getId(), type, StripeJson.GSON.toJson(event));
        wakeAfterCommit();
        return event.getId();
    }

    /**
     * An update: when {@code after} differs from {@code before}, {@code save} stores the change and the event
     * {@code type} announces it with what changed; no change, nothing stored and no event. Answers {@code after}.
     */
    public <T extends StripeObject> T emitIfChanged(String type, T before, T after, Runnable save) {
        Map<String, Object> changes = StripeJson.changes(before, after);
        if (!changes.isEmpty()) {
            save.run();
            emit(type, after, changes);
        }
        return after;
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
