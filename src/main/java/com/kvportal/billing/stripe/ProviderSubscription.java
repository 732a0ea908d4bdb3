package com.kvportal.billing.stripe;

import com.kvportal.billing.SubscriptionStatus;
import com.kvportal.billing.ids.ProviderCustomerId;
import com.kvportal.billing.ids.ProviderSubscriptionId;
import com.kvportal.common.Parsed;
import com.kvportal.common.WireName;
import com.stripe.model.Subscription;
import com.stripe.model.SubscriptionItem;
import java.time.Instant;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A subscription as the provider states it, reduced to what billing keeps.
 *
 * @param priceId the price of the first item, which names the plan
 * @param cancelAt when the subscription will end: its {@code cancel_at}, or the period end when it is set to
 *     cancel at period end; null when nothing is scheduled
 * @param endedAt when it ended, by the provider's clock (its {@code ended_at}); null while it runs
 * @param trialEnd when its trial ends (or ended); null when it had none
 */
public record ProviderSubscription(
        ProviderSubscriptionId id,
        ProviderCustomerId customer,
        SubscriptionStatus status,
        @Nullable String priceId,
        @Nullable Instant currentPeriodStart,
        @Nullable Instant currentPeriodEnd,
        @Nullable Instant cancelAt,
        @Nullable Instant endedAt,
        @Nullable Instant trialEnd) {

    /** The subscription as its deletion states it: canceled, whatever status its object still shows. */
    public ProviderSubscription deleted() {
        return status == SubscriptionStatus.CANCELED ? this : withStatus(SubscriptionStatus.CANCELED);
    }

    /** The same state with another status. */
    public ProviderSubscription withStatus(SubscriptionStatus other) {
        return new ProviderSubscription(
                id, customer, other, priceId, currentPeriodStart, currentPeriodEnd, cancelAt, endedAt, trialEnd);
    }

    private static final Logger log = LoggerFactory.getLogger(ProviderSubscription.class);

    /** Reads a stripe-java subscription; empty (logged) when it lacks what billing needs. */
    static Optional<ProviderSubscription> of(Subscription subscription) {
        Optional<ProviderSubscriptionId> id = Parsed.orEmpty(subscription.getId(), ProviderSubscriptionId::new);
        Optional<ProviderCustomerId> customer = Parsed.orEmpty(subscription.getCustomer(), ProviderCustomerId::new);
        Optional<SubscriptionStatus> status = Optional.ofNullable(subscription.getStatus())
                .flatMap(wire -> WireName.of(SubscriptionStatus.class, wire));
        if (id.isEmpty() || customer.isEmpty() || status.isEmpty()) {
            log.warn(
                    "Ignoring a provider subscription without a usable id, customer or status: {} {} {}",
                    subscription.getId(),
                    subscription.getCustomer(),
                    subscription.getStatus());
            return Optional.empty();
        }
        SubscriptionItem item = subscription.getItems() == null
                        || subscription.getItems().getData() == null
                        || subscription.getItems().getData().isEmpty()
                ? null
                : subscription.getItems().getData().get(0);
        Instant periodStart = item == null ? null : Epoch.instant(item.getCurrentPeriodStart());
        Instant periodEnd = item == null ? null : Epoch.instant(item.getCurrentPeriodEnd());
        Instant cancelAt = Epoch.instant(subscription.getCancelAt());
        if (cancelAt == null && Boolean.TRUE.equals(subscription.getCancelAtPeriodEnd())) {
            cancelAt = periodEnd;
        }
        String priceId =
                item == null || item.getPrice() == null ? null : item.getPrice().getId();
        return Optional.of(new ProviderSubscription(
                id.get(),
                customer.get(),
                status.get(),
                priceId,
                periodStart,
                periodEnd,
                cancelAt,
                Epoch.instant(subscription.getEndedAt()),
                Epoch.instant(subscription.getTrialEnd())));
    }
}
