package com.kvportal.billing;

import com.kvportal.billing.stripe.ProviderSubscription;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A subscription row locked until the end of the transaction, with the transitions the provider's news may make
 * of it: an ended subscription stays ended, and older news never overwrites newer.
 */
record LockedSubscription(
        UUID id,
        UUID organizationId,
        UUID planId,
        Tier tier,
        SubscriptionStatus status,
        @Nullable Instant currentPeriodStart,
        @Nullable Instant currentPeriodEnd,
        @Nullable Instant cancelAt,
        Instant providerStateAt)
        implements ProviderStamped {

    /** What becomes of the provider's state of the subscription. */
    enum Verdict {
        /** Newer news: the row takes it. */
        ACCEPTED,
        /** The subscription has ended; nothing brings it back. */
        ENDED_ALREADY,
        /** The row shows newer news already. */
        OLDER
    }

    /** Accept newer news: whether the provider's state stamped {@code newsAt} replaces the row's. */
    Verdict accept(Instant newsAt) {
        if (status.hasEnded()) {
            return Verdict.ENDED_ALREADY;
        }
        return isNotNewerThan(newsAt) ? Verdict.ACCEPTED : Verdict.OLDER;
    }

    /** Charging failed: a running (active or trialing) subscription is past due, unless the news is older. */
    Optional<SubscriptionStatus> markPastDue(Instant newsAt) {
        boolean running = status == SubscriptionStatus.ACTIVE || status == SubscriptionStatus.TRIALING;
        return running && isNotNewerThan(newsAt) ? Optional.of(SubscriptionStatus.PAST_DUE) : Optional.empty();
    }

    /** An invoice was paid: a past-due subscription is active again, unless the news is older. */
    Optional<SubscriptionStatus> markActive(Instant newsAt) {
        return status == SubscriptionStatus.PAST_DUE && isNotNewerThan(newsAt)
                ? Optional.of(SubscriptionStatus.ACTIVE)
                : Optional.empty();
    }

    /** Whether the provider's state differs from the row in anything but its cancellation. */
    boolean differsBeyondCancellation(ProviderSubscription news, UUID newPlanId) {
        return status != news.status()
                || !planId.equals(newPlanId)
                || !Objects.equals(currentPeriodStart, news.currentPeriodStart())
                || !Objects.equals(currentPeriodEnd, news.currentPeriodEnd());
    }
}
