package com.kvportal.sandbox.subscription;

import com.kvportal.sandbox.invoice.StripeInvoices;
import com.kvportal.sandbox.store.SandboxObjects;
import com.kvportal.sandbox.store.StoredCustomer;
import com.kvportal.sandbox.store.StoredInvoice;
import com.kvportal.sandbox.store.StoredPrice;
import com.kvportal.sandbox.store.StoredSubscription;
import com.kvportal.sandbox.stripe.StripeError;
import com.kvportal.sandbox.stripe.StripeJson;
import com.kvportal.sandbox.stripe.StripeParams;
import com.kvportal.sandbox.stripe.StripeViews;
import com.stripe.model.StripeCollection;
import com.stripe.model.Subscription;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Set;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The sandbox's subscriptions: updates and cancellation through the API, and the passing of a period (as a Stripe
 * test clock moves it) with its renewal or its end, entering the next phase of its schedule at a renewal.
 */
@Service
@RequiredArgsConstructor
public class StripeSubscriptions {

    private final SandboxObjects objects;
    private final StripeViews views;
    private final StripeInvoices invoices;
    private final SubscriptionNews news;
    private final StripePlanChanges planChanges;
    private final StripeSubscriptionSchedules schedules;
    private final Clock clock;

    public Subscription retrieve(String id) {
        return objects.subscription(id)
                .map(views::subscription)
                .orElseThrow(() -> StripeError.noSuch("subscription", id, "id"));
    }

    /** A page of the customer's subscriptions, newest first; {@code status} null: those that have not ended. */
    public StripeCollection<Subscription> list(@Nullable String customer, @Nullable String status, int limit) {
        return StripeJson.page(
                objects.subscriptions(customer, status, limit + 1), limit, views::subscription, "/v1/subscriptions");
    }

    @Transactional
    public Subscription update(String id, StripeParams params) {
        if (StripePlanChanges.isChange(params)) {
            return planChanges.change(id, params);
        }
        params.allowOnly(
                Set.of("cancel_at_period_end", "cancel_at", "metadata"),
                Set.of("proration_behavior", "description", "cancellation_details"));
        StoredSubscription subscription =
                objects.lockSubscription(id).orElseThrow(() -> StripeError.noSuch("subscription", id, "id"));
        Boolean cancelAtPeriodEnd = params.bool("cancel_at_period_end");
        boolean cancelAtGiven = params.has("cancel_at");
        Long cancelAt = params.integer("cancel_at");
        if (Boolean.TRUE.equals(cancelAtPeriodEnd) && cancelAt != null) {
            throw StripeError.onlyOneOf("cancel_at", "cancel_at", "cancel_at_period_end");
        }
        if (cancelAtPeriodEnd != null || cancelAtGiven) {
            schedules.refuseCancellationUnderSchedule(id);
        }
        if (subscription.hasEnded() && (cancelAtPeriodEnd != null || cancelAtGiven)) {
            throw StripeError.state(
                    "subscription_ended",
                    "A canceled subscription can only update its cancellation_details and metadata.");
        }
        long now = subscription.now(now());
        Long canceledAt = subscription.canceledAt() != null ? subscription.canceledAt() : Long.valueOf(now);
        StoredSubscription updated = subscription;
        if (Boolean.TRUE.equals(cancelAtPeriodEnd)) {
            // at the current API version, a cancellation at period end also shows as cancel_at
            updated = updated.withCancellation(true, subscription.currentPeriodEnd(), canceledAt);
        } else if (Boolean.FALSE.equals(cancelAtPeriodEnd) && !cancelAtGiven) {
            updated = updated.withCancellation(false, null, null);
        }
        if (cancelAtGiven) {
            if (cancelAt == null) {
                updated = updated.withCancellation(false, null, null);
            } else if (cancelAt <= now) {
                throw StripeError.invalid("cancel_at", "cancel_at must be in the future.");
            } else {
                updated = updated.withCancellation(false, cancelAt, canceledAt);
            }
        }
        updated = updated.withMetadata(StripeParams.merged(subscription.metadata(), params.metadata("metadata")));
        return news.saveAndAnnounce(subscription, updated);
    }

    /**
     * {@code DELETE /v1/subscriptions/{id}}: ends the subscription now, by its clock: {@code ended_at} and
     * {@code canceled_at} are that moment (Stripe's {@code canceled_at} is the latest cancellation request).
     */
    @Transactional
    public Subscription cancel(String id) {
        StoredSubscription subscription =
                objects.lockSubscription(id).orElseThrow(() -> StripeError.noSuch("subscription", id, "id"));
        if (subscription.hasEnded()) {
            throw StripeError.state("subscription_ended", "This subscription has already been canceled.");
        }
        long now = subscription.now(now());
        schedules.subscriptionEnded(id, now);
        return news.endAndAnnounce(subscription.ended(now, now));
    }

    /**
     * Moves the subscription to the end of its current period, as a Stripe test clock would: drafts left from
     * earlier renewals are finalized and charged first (their grace has passed); then it ends when set to cancel by
     * then, or renews: a new period, and the renewal drafted with {@code invoice.created}, to be finalized and
     * charged once that event is answered (or after the grace).
     */
    @Transactional
    public Subscription advance(String id) {
        String customerId = objects.subscription(id)
                .orElseThrow(() -> StripeError.noSuch("subscription", id, "id"))
                .customer();
        StoredCustomer customer = objects.lockCustomer(customerId).orElseThrow();
        if (objects.lockSubscription(id).orElseThrow().hasEnded()) {
            throw StripeError.state("subscription_ended", "This subscription has ended; there is nothing to advance.");
        }
        invoices.finalizeDrafts(customer);
        StoredSubscription subscription = objects.lockSubscription(id).orElseThrow();
        long now = subscription.now(now());
        if (subscription.endsWithCurrentPeriod()) {
            Long cancelAt = subscription.cancelAt();
            long endedAt = cancelAt == null
                    ? subscription.currentPeriodEnd()
                    : Math.min(cancelAt, subscription.currentPeriodEnd());
            schedules.subscriptionEnded(id, endedAt);
            return news.endAndAnnounce(
                    subscription.ended(endedAt, subscription.canceledAt() == null ? now : subscription.canceledAt()));
        }
        long start = subscription.currentPeriodEnd();
        // the end of a trial: active, the billing cycle anchored there, and the first paid period invoiced as a
        // renewal
        StoredSubscription renewing =
                schedules.atRenewal(subscription.isTrialing() ? subscription.trialOver() : subscription, start);
        StoredPrice price = objects.price(renewing.price()).orElseThrow();
        long end = periodEnd(renewing.billingCycleAnchor(), price.interval(), start);
        StoredInvoice draft = invoices.draftRenewal(renewing, price, start, end);
        return news.saveAndAnnounce(subscription, renewing.renewed(start, end, draft.id(), renewing.status()));
    }

    /** The end of the billing period that contains {@code at}: the first anchor + n intervals after it. */
    public static long periodEnd(long anchor, String interval, long at) {
        ZonedDateTime start = Instant.ofEpochSecond(anchor).atZone(ZoneOffset.UTC);
        for (int n = 1; ; n++) {
            ZonedDateTime end =
                    switch (interval) {
                        case "day" -> start.plusDays(n);
                        case "week" -> start.plusWeeks(n);
                        case "year" -> start.plusYears(n);
                        default -> start.plusMonths(n);
                    };
            if (end.toEpochSecond() > at) {
                return end.toEpochSecond();
            }
        }
    }

    private long now() {
        return clock.instant().getEpochSecond();
    }
}
