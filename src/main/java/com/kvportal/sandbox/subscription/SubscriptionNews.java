package com.kvportal.sandbox.subscription;

import com.kvportal.sandbox.events.SandboxEvents;
import com.kvportal.sandbox.store.SandboxObjects;
import com.kvportal.sandbox.store.StoredSubscription;
import com.kvportal.sandbox.stripe.StripeViews;
import com.stripe.model.Subscription;
import lombok.RequiredArgsConstructor;
import org.springframework.stereotype.Component;

/** Stores a changed subscription and records the event Stripe sends about it, in the caller's transaction. */
@Component
@RequiredArgsConstructor
public class SubscriptionNews {

    private final SandboxObjects objects;
    private final StripeViews views;
    private final SandboxEvents events;

    /** Stores a changed subscription and announces it with customer.subscription.updated; no change, no event. */
    public Subscription saveAndAnnounce(StoredSubscription before, StoredSubscription after) {
        return events.emitIfChanged(
                "customer.subscription.updated",
                views.subscription(before),
                views.subscription(after),
                () -> objects.update(after));
    }

    /** The subscription as the API shows it now. */
    Subscription current(String id) {
        return views.subscription(objects.subscription(id).orElseThrow());
    }

    /** Stores a subscription that has just ended and announces it with customer.subscription.deleted. */
    Subscription endAndAnnounce(StoredSubscription ended) {
        objects.update(ended);
        Subscription after = views.subscription(ended);
        events.emit("customer.subscription.deleted", after);
        return after;
    }
}
