package com.kvportal.billing;

import com.kvportal.billing.stripe.ProviderSubscription;
import com.kvportal.billing.stripe.ProviderSubscriptionId;
import com.kvportal.common.PaymentProvider;
import java.time.Instant;
import java.util.Objects;
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
class SubscriptionLedger {

    private static final Logger log = LoggerFactory.getLogger(SubscriptionLedger.class);

    private final StoredSubscriptions subscriptions;
    private final BillingAccounts billingAccounts;
    private final DuplicateSubscriptions duplicates;
    private final Plans plans;
    private final PaymentProvider provider;
    private final ApplicationEventPublisher events;

    /**
     * Applies the provider's state of a subscription of a known provider customer.
     *
     * @return false (logged) when the customer or the subscription is not one of ours
     */
    boolean apply(ProviderSubscription subscription, Instant stateAt) {
        Optional<BillingAccount> account = billingAccounts.findByProviderCustomer(subscription.customer());
        if (account.isEmpty()) {
            log.info(
                    "Ignoring subscription {}: its provider customer {} is not ours",
                    subscription.id(),
                    subscription.customer());
            return false;
        }
        return apply(account.get(), subscription, stateAt);
    }

    /**
     * Applies the provider's state of a subscription of the account's provider customer.
     *
     * @return false (logged) when the subscription belongs to another organization
     */
    boolean apply(BillingAccount account, ProviderSubscription subscription, Instant stateAt) {
        Plan plan = planFor(subscription.priceId());
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
            publishNew(account.organizationId(), inserted.get(), plan, subscription, stateAt);
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
        switch (row.accept(stateAt)) {
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
                publishChange(row, plan, subscription, stateAt);
            }
        }
        return true;
    }

    /** An invoice of the subscription was paid: a past-due subscription is active again. */
    void invoicePaid(UUID organizationId, ProviderSubscriptionId id, Instant stateAt) {
        lockOf(organizationId, id)
                .ifPresent(row -> row.markActive(stateAt).ifPresent(to -> turn(row, id, to, stateAt)));
    }

    /** Charging an invoice of the subscription failed: a running subscription is past due. */
    void paymentFailed(UUID organizationId, ProviderSubscriptionId id, Instant stateAt) {
        lockOf(organizationId, id)
                .ifPresent(row -> row.markPastDue(stateAt).ifPresent(to -> turn(row, id, to, stateAt)));
    }

    /** The plan of the organization's subscription with this provider id; empty when there is none. */
    Optional<Tier> tierOf(UUID organizationId, @Nullable ProviderSubscriptionId id) {
        return id == null
                ? Optional.empty()
                : subscriptions
                        .byProviderId(id)
                        .filter(s -> s.organizationId().equals(organizationId))
                        .map(s -> s.plan().tier());
    }

    private Optional<LockedSubscription> lockOf(UUID organizationId, ProviderSubscriptionId id) {
        Optional<LockedSubscription> row = subscriptions.lock(id);
        if (row.isEmpty() || !row.get().organizationId().equals(organizationId)) {
            log.info("No subscription {} of organization {} to change", id, organizationId);
            return Optional.empty();
        }
        return row;
    }

    private void turn(LockedSubscription row, ProviderSubscriptionId id, SubscriptionStatus to, Instant stateAt) {
        subscriptions.updateStatus(row.id(), to, stateAt);
        log.info("Subscription {} is {} now", id, to.wire());
        events.publishEvent(new SubscriptionUpdated(row.organizationId(), row.id(), row.tier(), to));
    }

    private void publishNew(
            UUID organizationId, UUID id, Plan plan, ProviderSubscription subscription, Instant stateAt) {
        if (subscription.status().hasEnded()) {
            events.publishEvent(ended(organizationId, id, plan.tier(), subscription, null, stateAt));
            return;
        }
        if (subscription.status().grantsPlan()) {
            events.publishEvent(new SubscriptionActivated(organizationId, id, plan.tier()));
        }
        if (subscription.cancelAt() != null) {
            events.publishEvent(new SubscriptionCancelScheduled(organizationId, id, subscription.cancelAt()));
        }
    }

    /**
     * The events of an accepted change: ended; or activated (it grants its plan now and did not); a newly
     * scheduled cancellation; updated for any other change.
     */
    private void publishChange(LockedSubscription row, Plan plan, ProviderSubscription subscription, Instant stateAt) {
        UUID organizationId = row.organizationId();
        if (subscription.status().hasEnded()) {
            events.publishEvent(ended(organizationId, row.id(), row.tier(), subscription, row, stateAt));
            return;
        }
        boolean activated = subscription.status().grantsPlan() && !row.status().grantsPlan();
        boolean cancelScheduled = row.cancelAt() == null && subscription.cancelAt() != null;
        boolean cancelChanged = !cancelScheduled && !Objects.equals(row.cancelAt(), subscription.cancelAt());
        if (activated) {
            events.publishEvent(new SubscriptionActivated(organizationId, row.id(), plan.tier()));
        } else if (cancelChanged || row.differsBeyondCancellation(subscription, plan.id())) {
            events.publishEvent(new SubscriptionUpdated(organizationId, row.id(), plan.tier(), subscription.status()));
        }
        if (cancelScheduled) {
            events.publishEvent(new SubscriptionCancelScheduled(organizationId, row.id(), subscription.cancelAt()));
        }
    }

    /**
     * The end of a subscription as the provider states it: its last period from the provider's object (or, when the
     * object lacks one, the period recorded before), and the moment it ended from the object's {@code ended_at}
     * (or, lacking that, the provider's news: {@code stateAt}), never the service's clock.
     */
    private static SubscriptionEnded ended(
            UUID organizationId,
            UUID id,
            Tier tier,
            ProviderSubscription subscription,
            @Nullable LockedSubscription before,
            Instant stateAt) {
        Instant start = subscription.currentPeriodStart();
        Instant end = subscription.currentPeriodEnd();
        if ((start == null || end == null) && before != null) {
            start = before.currentPeriodStart();
            end = before.currentPeriodEnd();
        }
        Instant endedAt = subscription.endedAt();
        if (endedAt == null) {
            log.warn("Subscription {} ended without ended_at: taking the provider's news of {}", id, stateAt);
            endedAt = stateAt;
        }
        return new SubscriptionEnded(organizationId, id, subscription.customer().value(), tier, start, end, endedAt);
    }

    /** The plan of a provider price; a price we do not sell grants nothing beyond free. */
    private Plan planFor(@Nullable String priceId) {
        if (provider.pricePro().equals(priceId)) {
            return plans.byTier(Tier.PRO);
        }
        log.warn("Provider price {} is not the pro price {}: recording the free plan", priceId, provider.pricePro());
        return plans.byTier(Tier.FREE);
    }
}
