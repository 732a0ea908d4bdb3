package com.kvportal.billing.subscription;

import com.kvportal.billing.Plan;
import com.kvportal.billing.Tier;
import com.kvportal.billing.ids.ProviderSubscriptionId;
import com.kvportal.billing.stripe.ProviderSubscription;
import com.kvportal.billing.subscription.LockedSubscription.Transition;
import com.kvportal.billing.subscription.LockedSubscription.Verdict;
import com.kvportal.common.database.InCallersTransaction;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;

/**
 * Writes what the provider says about subscriptions, whoever brings the news (a webhook event, the checkout
 * callback, the cancel call), under the rules of {@link LockedSubscription}, and publishes the domain events of
 * each change in the same transaction. Runs inside its caller's transaction.
 */
@InCallersTransaction
@RequiredArgsConstructor
public class SubscriptionLedger {

    private static final Logger log = LoggerFactory.getLogger(SubscriptionLedger.class);

    private final StoredSubscriptions subscriptions;
    private final BillingAccounts billingAccounts;
    private final DuplicateSubscriptions duplicates;
    private final Plans plans;
    private final ApplicationEventPublisher events;

    /** What became of news of a subscription. */
    public enum Applied {
        /** Recorded, or found older than what is recorded. */
        APPLIED,
        /** Nothing: the customer or the subscription is not one of ours (logged). */
        NOT_OURS,
        /** Nothing: an event's news that only the provider's state now can settle ({@link Verdict#UNCERTAIN}). */
        UNCERTAIN
    }

    /**
     * Applies the provider's state of a subscription of a known provider customer, as the provider answered a call
     * (a change, a read): of two states of the same second, the one applied later wins.
     *
     * @param subscription the provider's state as its news states it ({@link LockedSubscription#stated})
     * @return false (logged) when the customer or the subscription is not one of ours
     */
    public boolean apply(ProviderSubscription subscription, Instant stateAt) {
        return apply(subscription, stateAt, LockedSubscription::stated) == Applied.APPLIED;
    }

    /**
     * Applies the provider's state of a subscription as an event states it, stamped with the event's
     * {@code created}: {@link Applied#UNCERTAIN}, changing nothing, when it is of the same second as the recorded
     * state and says otherwise.
     */
    public Applied applyEvent(ProviderSubscription subscription, Instant createdAt) {
        return apply(subscription, createdAt, LockedSubscription::statedByEvent);
    }

    /** How a locked row takes news: {@link LockedSubscription#stated} or {@link LockedSubscription#statedByEvent}. */
    @FunctionalInterface
    private interface News {
        Transition of(LockedSubscription row, ProviderSubscription stated, Plan statedPlan, Instant newsAt);
    }

    private Applied apply(ProviderSubscription subscription, Instant stateAt, News news) {
        Optional<BillingAccount> account = billingAccounts.findByProviderCustomer(subscription.customer());
        if (account.isEmpty()) {
            log.info(
                    "Ignoring subscription {}: its provider customer {} is not ours",
                    subscription.id(),
                    subscription.customer());
            return Applied.NOT_OURS;
        }
        return apply(account.get(), subscription, stateAt, news);
    }

    /**
     * Applies the provider's state of a subscription of the account's provider customer.
     *
     * @param subscription the provider's state as its news states it ({@link LockedSubscription#stated})
     * @return false (logged) when the subscription belongs to another organization
     */
    public boolean apply(BillingAccount account, ProviderSubscription subscription, Instant stateAt) {
        return apply(account, subscription, stateAt, LockedSubscription::stated) == Applied.APPLIED;
    }

    private Applied apply(BillingAccount account, ProviderSubscription subscription, Instant stateAt, News news) {
        Plan plan = plans.ofProviderPrice(subscription.priceId());
        // one new subscription of an organization at a time, so that a second one sees the first
        // (DuplicateSubscriptions)
        billingAccounts.lock(account.organizationId());
        Optional<UUID> inserted = subscriptions.insertIfAbsent(
                account.organizationId(), account.customerId(), plan.id(), subscription, stateAt);
        if (inserted.isPresent()
                && duplicates.cancelIfSecond(account.organizationId(), inserted.get(), plan, subscription)) {
            return Applied.APPLIED;
        }
        if (inserted.isPresent()) {
            log.info(
                    "Subscription {} of organization {} recorded as {}",
                    subscription.id(),
                    account.organizationId(),
                    subscription.status().wire());
            LockedSubscription.eventsOfNew(account.organizationId(), inserted.get(), plan, subscription, stateAt)
                    .forEach(events::publishEvent);
            return Applied.APPLIED;
        }
        LockedSubscription row = subscriptions.lock(subscription.id()).orElseThrow();
        if (!row.organizationId().equals(account.organizationId())) {
            log.warn(
                    "Ignoring subscription {}: it belongs to organization {}, not {}",
                    subscription.id(),
                    row.organizationId(),
                    account.organizationId());
            return Applied.NOT_OURS;
        }
        Transition transition = news.of(row, subscription, plan, stateAt);
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
            case UNCERTAIN -> {
                log.info(
                        "News of subscription {} from {} differs from its state of the same second; asking the provider",
                        subscription.id(),
                        stateAt);
                return Applied.UNCERTAIN;
            }
            case TURNED, UNCHANGED -> throw new IllegalStateException("a provider state " + transition.verdict());
        }
        transition.events().forEach(events::publishEvent);
        return Applied.APPLIED;
    }

    /** An invoice of the organization's subscription was paid: a past-due subscription is active again. */
    public void invoicePaid(UUID organizationId, ProviderSubscriptionId id, Instant stateAt) {
        turn(organizationId, id, row -> row.invoicePaid(stateAt), stateAt);
    }

    /** A payment of an invoice of the organization's subscription failed: a running one is past due. */
    public void paymentFailed(UUID organizationId, ProviderSubscriptionId id, Instant stateAt) {
        turn(organizationId, id, row -> row.paymentFailed(stateAt), stateAt);
    }

    private void turn(
            UUID organizationId,
            ProviderSubscriptionId id,
            Function<LockedSubscription, Transition> news,
            Instant stateAt) {
        Optional<LockedSubscription> locked = subscriptions.lock(id);
        if (locked.isEmpty() || !locked.get().organizationId().equals(organizationId)) {
            log.info("No subscription {} of organization {} to change", id, organizationId);
            return;
        }
        LockedSubscription row = locked.get();
        Transition transition = news.apply(row);
        if (transition.verdict() == LockedSubscription.Verdict.TURNED && transition.to() != null) {
            subscriptions.updateStatus(row.id(), transition.to(), stateAt);
            log.info("Subscription {} is {} now", id, transition.to().wire());
        }
        transition.events().forEach(events::publishEvent);
    }

    /**
     * The plan that the organization's subscription with this provider id had in the period that ended at
     * {@code periodEnd} (a renewal bills that period's storage on it, even when the plan changed with the renewal);
     * empty when there is no such subscription.
     */
    public Optional<Tier> tierOf(UUID organizationId, @Nullable ProviderSubscriptionId id, Instant periodEnd) {
        return id == null ? Optional.empty() : subscriptions.tierOfPeriodEndingAt(id, organizationId, periodEnd);
    }
}
