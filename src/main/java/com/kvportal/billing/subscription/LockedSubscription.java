package com.kvportal.billing.subscription;

import com.kvportal.billing.BillingEvent.SubscriptionActivated;
import com.kvportal.billing.BillingEvent.SubscriptionCancelScheduled;
import com.kvportal.billing.BillingEvent.SubscriptionEnded;
import com.kvportal.billing.BillingEvent.SubscriptionPlanChanged;
import com.kvportal.billing.BillingEvent.SubscriptionTrialStarted;
import com.kvportal.billing.BillingEvent.SubscriptionUpdated;
import com.kvportal.billing.Plan;
import com.kvportal.billing.SubscriptionStatus;
import com.kvportal.billing.Tier;
import com.kvportal.billing.stripe.ProviderSubscription;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A subscription row locked until the end of the transaction, with every transition the provider's news may make of
 * it ({@link #stated}, {@link #invoicePaid}, {@link #paymentFailed}) and the domain events each raises: an ended
 * subscription stays ended, and older news never overwrites newer. Whoever brings the news (an event, the checkout
 * callback, the cancel call) passes what it states; nothing here knows the provider's event types.
 */
public record LockedSubscription(
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

    private static final Logger log = LoggerFactory.getLogger(LockedSubscription.class);

    /** What becomes of the row. */
    public enum Verdict {
        /** The provider's whole new state replaces the row's. */
        ACCEPTED,
        /** Only the status turns ({@link Transition#to()}). */
        TURNED,
        /** Nothing: the event changes nothing of this subscription in its status. */
        UNCHANGED,
        /** Nothing: the subscription has ended; no news brings it back. */
        ENDED_ALREADY,
        /** Nothing: the row shows newer news already. */
        OLDER,
        /**
         * Nothing yet: an event of the same second as the row's state that says otherwise. Events arrive in no
         * particular order and the provider stamps them to the second, so which of the two is newer is unknown: the
         * provider's state as it is now settles it ({@link SubscriptionLedger#applyEvent}).
         */
        UNCERTAIN
    }

    /**
     * What an event does to the subscription.
     *
     * @param to the status the row turns to ({@link Verdict#TURNED}); null otherwise
     * @param events the domain events to publish, in order, in the transaction of the change
     */
    public record Transition(Verdict verdict, @Nullable SubscriptionStatus to, List<Object> events) {

        public Transition {
            events = List.copyOf(events);
        }

        static Transition none(Verdict verdict) {
            return new Transition(verdict, null, List.of());
        }
    }

    /**
     * The transition the provider's state of this subscription, stamped {@code newsAt}, makes of it (a subscription
     * event, a checkout completion, or the cancel call's answer, which is what {@code customer.subscription.updated}
     * would bring): accepted unless it has ended or the news is older; raises ended, or activated (it grants its plan
     * now and did not), a newly scheduled cancellation, and updated for any other change.
     *
     * @param stated the provider's state of the subscription, as its news states it (a deletion's is canceled)
     * @param statedPlan the plan of {@code stated}'s price
     */
    public Transition stated(ProviderSubscription stated, Plan statedPlan, Instant newsAt) {
        return state(stated, statedPlan, newsAt);
    }

    /**
     * As {@link #stated}, for news an event brings: one of the same second as the row's state that differs from it is
     * {@link Verdict#UNCERTAIN}.
     */
    public Transition statedByEvent(ProviderSubscription stated, Plan statedPlan, Instant newsAt) {
        if (!status.hasEnded() && newsAt.equals(providerStateAt) && differs(stated, statedPlan.id())) {
            return Transition.none(Verdict.UNCERTAIN);
        }
        return state(stated, statedPlan, newsAt);
    }

    /** An invoice of the subscription was paid ({@code invoice.paid}): a past-due subscription turns active. */
    public Transition invoicePaid(Instant newsAt) {
        return turn(status == SubscriptionStatus.PAST_DUE, SubscriptionStatus.ACTIVE, newsAt);
    }

    /**
     * A payment of an invoice of the subscription failed ({@code invoice.payment_failed}): a running (active or
     * trialing) subscription turns past due.
     */
    public Transition paymentFailed(Instant newsAt) {
        return turn(
                status == SubscriptionStatus.ACTIVE || status == SubscriptionStatus.TRIALING,
                SubscriptionStatus.PAST_DUE,
                newsAt);
    }

    /**
     * The events of a subscription recorded for the first time (no row before): ended; or activated when it grants
     * its plan, and a scheduled cancellation.
     */
    public static List<Object> eventsOfNew(
            UUID organizationId, UUID id, Plan plan, ProviderSubscription subscription, Instant stateAt) {
        if (subscription.status().hasEnded()) {
            return List.of(ended(organizationId, id, plan.tier(), subscription, null, stateAt));
        }
        List<Object> events = new ArrayList<>();
        if (subscription.status().grantsPlan()) {
            events.add(new SubscriptionActivated(organizationId, id, plan.tier()));
        }
        if (subscription.status() == SubscriptionStatus.TRIALING && subscription.trialEnd() != null) {
            events.add(new SubscriptionTrialStarted(organizationId, id, plan.tier(), subscription.trialEnd()));
        }
        if (subscription.cancelAt() != null) {
            events.add(new SubscriptionCancelScheduled(organizationId, id, subscription.cancelAt()));
        }
        return events;
    }

    private Transition state(ProviderSubscription news, Plan plan, Instant newsAt) {
        if (status.hasEnded()) {
            return Transition.none(Verdict.ENDED_ALREADY);
        }
        if (!isNotNewerThan(newsAt)) {
            return Transition.none(Verdict.OLDER);
        }
        if (news.status().hasEnded()) {
            return new Transition(Verdict.ACCEPTED, null, List.of(ended(organizationId, id, tier, news, this, newsAt)));
        }
        List<Object> events = new ArrayList<>();
        boolean activated = news.status().grantsPlan() && !status.grantsPlan();
        boolean cancelScheduled = cancelAt == null && news.cancelAt() != null;
        boolean cancelChanged = !cancelScheduled && !Objects.equals(cancelAt, news.cancelAt());
        if (activated) {
            events.add(new SubscriptionActivated(organizationId, id, plan.tier()));
        } else if (cancelChanged || differsBeyondCancellation(news, plan.id())) {
            events.add(new SubscriptionUpdated(organizationId, id, plan.tier(), news.status()));
        }
        if (cancelScheduled) {
            events.add(new SubscriptionCancelScheduled(organizationId, id, news.cancelAt()));
        }
        if (!planId.equals(plan.id())) {
            events.add(planChanged(news, plan));
        }
        return new Transition(Verdict.ACCEPTED, null, events);
    }

    /**
     * The plan changed: when the news starts a new period inside the current one (an upgrade, which the provider
     * bills as a new period from now), the current period ended at that start, by the provider's clock.
     */
    private SubscriptionPlanChanged planChanged(ProviderSubscription news, Plan plan) {
        Instant newStart = news.currentPeriodStart();
        boolean cutShort = newStart != null
                && currentPeriodStart != null
                && currentPeriodEnd != null
                && newStart.isAfter(currentPeriodStart)
                && newStart.isBefore(currentPeriodEnd);
        return new SubscriptionPlanChanged(
                organizationId,
                id,
                news.customer(),
                tier,
                plan.tier(),
                cutShort ? currentPeriodStart : null,
                cutShort ? newStart : null);
    }

    /** The status turns {@code to} when {@code applies}, unless the news is older. */
    private Transition turn(boolean applies, SubscriptionStatus to, Instant newsAt) {
        if (!applies || !isNotNewerThan(newsAt)) {
            return Transition.none(Verdict.UNCHANGED);
        }
        return new Transition(Verdict.TURNED, to, List.of(new SubscriptionUpdated(organizationId, id, tier, to)));
    }

    /** Whether the provider's state differs from the row in anything it records. */
    private boolean differs(ProviderSubscription news, UUID newPlanId) {
        return !Objects.equals(cancelAt, news.cancelAt()) || differsBeyondCancellation(news, newPlanId);
    }

    /** Whether the provider's state differs from the row in anything but its cancellation. */
    private boolean differsBeyondCancellation(ProviderSubscription news, UUID newPlanId) {
        return status != news.status()
                || !planId.equals(newPlanId)
                || !Objects.equals(currentPeriodStart, news.currentPeriodStart())
                || !Objects.equals(currentPeriodEnd, news.currentPeriodEnd());
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
        return new SubscriptionEnded(organizationId, id, subscription.customer(), tier, start, end, endedAt);
    }
}
