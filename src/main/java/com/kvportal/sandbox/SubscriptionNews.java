package com.kvportal.sandbox;

import java.util.Map;
import org.springframework.stereotype.Component;

/** Stores a changed subscription and records the event Stripe sends about it, in the caller's transaction. */
@Component
@SandboxMode
class SubscriptionNews {

    private final SandboxObjects objects;
    private final StripeJson json;
    private final SandboxEvents events;

    SubscriptionNews(SandboxObjects objects, StripeJson json, SandboxEvents events) {
        this.objects = objects;
        this.json = json;
        this.events = events;
    }

    /** Stores a changed subscription and announces it with customer.subscription.updated; no change, no event. */
    Map<String, Object> saveAndAnnounce(StoredSubscription before, StoredSubscription after) {
        Map<String, Object> beforeJson = json.subscription(before);
        Map<String, Object> afterJson = json.subscription(after);
        Map<String, Object> changes = SandboxEvents.changes(beforeJson, afterJson);
        if (!changes.isEmpty()) {
            objects.update(after);
            events.emit("customer.subscription.updated", afterJson, changes);
        }
        return afterJson;
    }

    /** Stores a subscription that has just ended and announces it with customer.subscription.deleted. */
    Map<String, Object> endAndAnnounce(StoredSubscription ended) {
        objects.update(ended);
        Map<String, Object> after = json.subscription(ended);
        events.emit("customer.subscription.deleted", after);
        return after;
    }
}
