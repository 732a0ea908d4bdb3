package com.kvportal.sandbox;

import com.stripe.model.Subscription;
import java.util.Map;
import org.springframework.stereotype.Component;

/** Stores a changed subscription and records the event Stripe sends about it, in the caller's transaction. */
@Component
@SandboxMode
class SubscriptionNews {

    private final SandboxObjects objects;
    private final StripeViews views;
    private final SandboxEvents events;

    SubscriptionNews(SandboxObjects objects, StripeViews views, SandboxEvents events) {
        this.objects = objects;
        this.views = views;
        this.events = events;
    }

    /** Stores a changed subscription and announces it with customer.subscription.updated; no change, no event. */
    Subscription saveAndAnnounce(StoredSubscription before, StoredSubscription after) {
        Subscription was = views.subscription(before);
        Subscription is = views.subscription(after);
        Map<String, Object> changes = StripeJson.changes(was, is);
        if (!changes.isEmpty()) {
            objects.update(after);
            events.emit("customer.subscription.updated", is, changes);
        }
        return is;
    }

    /** Stores a subscription that has just ended and announces it with customer.subscription.deleted. */
    Subscription endAndAnnounce(StoredSubscription ended) {
        objects.update(ended);
        Subscription after = views.subscription(ended);
        events.emit("customer.subscription.deleted", after);
        return after;
    }
}
