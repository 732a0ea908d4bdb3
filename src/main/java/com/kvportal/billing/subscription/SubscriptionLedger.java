package com.kvportal.billing.subscription;

import com.kvportal.billing.Plan;
import com.kvportal.billing.Tier;
import com.kvportal.billing.stripe.ProviderSubscription;
import com.kvportal.billing.stripe.ProviderSubscriptionId;
import com.kvportal.billing.subscription.LockedSubscription.Transition;
import com.kvportal.billing.webhook.WebhookEventType;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Writes what the provider says about subscriptions, whoever brings the news (a webhook event, the checkout
 * callback, the cancel call), under the rules of {@link LockedSubscription}, and publishes the domain events of
 * each change in the same transaction. Runs inside its caller's transaction.
 */
@Component
@Transactional(propagation = Propagation.MANDATORY)
@RequiredArgsConstructor
public class SubscriptionLedger {

    private static final Logger log = LoggerFactory.getLogger(SubscriptionLedger.class);

    private final StoredSubscriptions subscriptions;
    private final BillingAccounts billingAccounts;
    private final DuplicateSubscriptions duplicates;
    private final Plans plans;
    private final ApplicationEventPublisher events;

    /**
     * Applies the provider's state of a subscription of a known provider customer.
     *
     * @param event the event whose news it is ({@link LockedSubscription#on})
     * @return false (logged) when the customer or the subscription is not one of ours
     */
    public boolean apply(WebhookEventType event, ProviderSubscription subscription, Instant stateAt) {
        Optional<BillingAccount> account = billingAccounts.findByProviderCustomer(subscription.customer());
        if (account.isEmpty()) {
            log.info(
                    "Ignoring subscription {}: its provider customer {} is not ours",
                    subscription.id(),
                    subscription.customer());
            return false;
        }
        return apply(account.get(), event, subscription, stateAt);
    }

    /**
     * Applies the provider's state of a subscription of the account's provider customer.
     *
     * @param event the event whose news it is ({@link LockedSubscription#on})
     * @return false (logged) when the subscription belongs to another organization
     */
    public boolean apply(BillingAccount account, WebhookEventType event, ProviderSubscription news, Instant stateAt) {
        ProviderSubscription subscription = event.stated(news);
        Plan plan = plans.ofProviderPrice(subscription.priceId());
        // one new subscription of an organization at a time, so that a second one sees the first
        // (DuplicateSubscriptions)
        billingAccounts.lock(account.organizationId());
        Optional<UUID> inserted = subscriptions.insertIfAbsent(
                account.organizationId(), account.customerId(), plan.id(), subscription, stateAt);
        if (inserted.isPresent()
                && duplicates.cancelIfSecond(account.organizationId(), inserted.get(), plan, subscription)) {
            return true;
        }
        if (inserted.isPresent()) {
            log.info(
                    "Subscription {} of organization {} recorded as {}",
                    subscription.id(),
                    account.organizationId(),
                    subscription.status().wire());
            LockedSubscription.eventsOfNew(account.organizationId(), inserted.get(), plan, subscription, stateAt)
                    .forEach(events::publishEvent);
            return true;
        }
        LockedSubscription row = subscriptions.lock(subscription.id()).orElseThrow();
        if (!row.organizationId().equals(account.organizationId())) {
            log.warn(
                    "Ignoring subscription {}: it belongs to organization {}, not {}",
                    subscription.id(),
                    row.organizationId(),
                    account.organizationId());
            return false;
        }
        Transition transition = row.on(event, stateAt, subscription, plan);
        switch (transition.verdict()) {
            case ENDED_ALREADY ->
                log.info(
                        "Ignoring news of subscription {}: it has ended ({})",
                        subscription.id(),
                        row.status().wire());
            case OLDER ->
                log.info(
                        "Ignoring news of subscription {} from {}: its state is from {}",
                        subscription.id(),
                        stateAt,
                        row.providerStateAt());
            case ACCEPTED -> {
                subscriptions.update(row.id(), plan.id(), subscription, stateAt);
                log.info(
                        "Subscription {} updated: {}",
                        subscription.id(),
                        subscription.status().wire());
            }
            case TURNED, UNCHANGED -> throw new IllegalStateException("a provider state " + transition.verdict());
        }
        transition.events().forEach(events::publishEvent);
        return true;
    }

    /**
     * An invoice event about the organization's subscription ({@code invoice.paid}: a past-due subscription is active
     * again; {@code invoice.payment_failed}: a running one is past due).
     */
    public void invoiceEvent(WebhookEventType event, UUID organizationId, ProviderSubscriptionId id, Instant stateAt) {
        Optional<LockedSubscription> locked = subscriptions.lock(id);
        if (locked.isEmpty() || !locked.get().organizationId().equals(organizationId)) {
            log.info("No subscription {} of organization {} to change", id, organizationId);
            return;
        }
        LockedSubscription row = locked.get();
        Transition transition = row.on(event, stateAt, null, null);
        if (transition.verdict() == LockedSubscription.Verdict.TURNED && transition.to() != null) {
            subscriptions.updateStatus(row.id(), transition.to(), stateAt);
            log.info("Subscription {} is {} now", id, transition.to().wire());
        }
        transition.events().forEach(events::publishEvent);
    }

    /** The plan of the organization's subscription with this provider id; empty when there is none. */
    public Optional<Tier> tierOf(UUID organizationId, @Nullable ProviderSubscriptionId id) {
        return id == null
                ? Optional.empty()
                : subscriptions
                        .byProviderId(id)
                        .filter(s -> s.organizationId().equals(organizationId))
                        .map(s -> s.plan().tier());
    }
}
