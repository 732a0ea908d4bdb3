package com.kvportal.billing.subscription;

import com.kvportal.billing.BillingEvent.SubscriptionDuplicateCanceled;
import com.kvportal.billing.Plan;
import com.kvportal.billing.SubscriptionStatus;
import com.kvportal.billing.stripe.ProviderSubscription;
import com.kvportal.billing.stripe.StripeGateway;
import com.kvportal.common.database.InCallersTransaction;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;

/**
 * One subscription per organization at a time. A new subscription row is recorded under the lock of the
 * organization's account row ({@link BillingAccounts#lock}), so that of two completions arriving at once (webhook
 * and success callback, any threads or instances, either order) one records first and the other sees it: the one
 * recorded second is the newer, the duplicate. It is canceled at the provider at once with its payments refunded,
 * inside the recording transaction, so that a provider failure rolls it all back and the provider's retry (or the
 * webhook, after a callback) does it again; its state is written canceled, and it never grants a plan, shows an
 * invoice or bills an overage.
 */
@InCallersTransaction
@RequiredArgsConstructor
class DuplicateSubscriptions {

    private static final Logger log = LoggerFactory.getLogger(DuplicateSubscriptions.class);

    private final StoredSubscriptions subscriptions;
    private final StripeGateway gateway;
    private final ApplicationEventPublisher events;
    private final Clock clock;

    /**
     * Cancels the just-recorded subscription {@code id} as a duplicate when the organization has another live one
     * (the caller holds the organization's account lock).
     *
     * @return true when it was a duplicate
     */
    boolean cancelIfSecond(UUID organizationId, UUID id, Plan plan, ProviderSubscription subscription) {
        if (subscription.status().hasEnded()) {
            return false;
        }
        UUID kept = subscriptions.otherLive(organizationId, id).orElse(null);
        if (kept == null) {
            return false;
        }
        log.warn(
                "Subscription {} is a second one of organization {} (it keeps {}): canceling it and refunding it",
                subscription.id(),
                organizationId,
                kept);
        subscriptions.markDuplicate(id, kept);
        // a subscription the provider does not know runs nowhere: it is recorded canceled
        ProviderSubscription canceled = gateway.cancelDuplicate(subscription.id())
                .orElseGet(() -> subscription.withStatus(SubscriptionStatus.CANCELED));
        if (!canceled.status().hasEnded()) {
            throw new IllegalStateException("the provider still shows duplicate subscription " + subscription.id()
                    + " as " + canceled.status().wire());
        }
        Instant asOf = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        subscriptions.update(id, plan.id(), canceled, asOf);
        events.publishEvent(
                new SubscriptionDuplicateCanceled(organizationId, id, kept, subscription.id(), plan.tier()));
        return true;
    }
}
