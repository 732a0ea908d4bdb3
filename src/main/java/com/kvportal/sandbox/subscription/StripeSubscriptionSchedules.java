package com.kvportal.sandbox.subscription;

import com.kvportal.sandbox.events.SandboxEvents;
import com.kvportal.sandbox.store.SandboxObjects;
import com.kvportal.sandbox.store.SandboxSchedules;
import com.kvportal.sandbox.store.StoredPrice;
import com.kvportal.sandbox.store.StoredSchedule;
import com.kvportal.sandbox.store.StoredSubscription;
import com.kvportal.sandbox.stripe.StripeError;
import com.kvportal.sandbox.stripe.StripeId;
import com.kvportal.sandbox.stripe.StripeParams;
import com.kvportal.sandbox.stripe.StripeViews;
import com.stripe.model.SubscriptionSchedule;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lombok.RequiredArgsConstructor;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Subscription schedules as Stripe runs them, for the part the service uses: one made from a running subscription
 * ({@code from_subscription}, one phase: its current period on its price), its phases replaced
 * ({@code phases[n][items][0][price]}, {@code [start_date]}, {@code [end_date]} or {@code [duration]}; a phase
 * without either lasts one period of its price), released or canceled. The sandbox moves a subscription from phase to phase only at the
 * end of a period ({@link #atRenewal}, from {@code advance}): a phase must start where a period ends. Each change is
 * announced as Stripe announces it ({@code subscription_schedule.created}, {@code .updated}, {@code .released},
 * {@code .canceled}).
 */
@Service
@RequiredArgsConstructor
public class StripeSubscriptionSchedules {

    private final SandboxObjects objects;
    private final SandboxSchedules schedules;
    private final StripeViews views;
    private final SubscriptionNews news;
    private final SandboxEvents events;
    private final Clock clock;

    public SubscriptionSchedule retrieve(String id) {
        return schedules
                .schedule(id)
                .map(views::schedule)
                .orElseThrow(() -> StripeError.noSuch("subscription_schedule", id, "id"));
    }

    /** {@code POST /v1/subscription_schedules} with {@code from_subscription}. */
    @Transactional
    public SubscriptionSchedule create(StripeParams params) {
        params.allowOnly(Set.of("from_subscription", "metadata"), Set.of());
        String id = params.text("from_subscription");
        if (id == null) {
            throw StripeError.invalid(
                    "from_subscription", "The sandbox makes a schedule from a subscription only (from_subscription).");
        }
        StoredSubscription subscription = objects.lockSubscription(id)
                .orElseThrow(() -> StripeError.noSuchParam("subscription", id, "from_subscription"));
        if (subscription.hasEnded()) {
            throw StripeError.state(
                    "subscription_ended", "You cannot create a schedule from a subscription that has been canceled.");
        }
        if (schedules.lockGoverning(id).isPresent()) {
            throw StripeError.state(
                    "resource_already_exists",
                    "You cannot migrate a subscription that is already attached to a schedule.");
        }
        StoredSchedule schedule = new StoredSchedule(
                StripeId.SUBSCRIPTION_SCHEDULE.next(),
                subscription.customer(),
                id,
                "active",
                subscription.endsWithCurrentPeriod() ? "cancel" : "release",
                List.of(new StoredSchedule.Phase(
                        subscription.currentPeriodStart(),
                        subscription.currentPeriodEnd(),
                        subscription.price(),
                        subscription.quantity(),
                        subscription.isTrialing() ? subscription.trialEnd() : null)),
                null,
                null,
                null,
                null,
                StripeParams.merged(Map.of(), params.metadata("metadata")),
                subscription.now(now()));
        schedules.insert(schedule);
        return announce("subscription_schedule.created", schedule);
    }

    /** {@code POST /v1/subscription_schedules/{id}}: new phases (the first must keep its start) and end behavior. */
    @Transactional
    public SubscriptionSchedule update(String id, StripeParams params) {
        params.allowOnly(Set.of("phases", "end_behavior", "metadata"), Set.of("proration_behavior"));
        StoredSchedule schedule = governingLocked(id);
        StoredSubscription subscription =
                objects.subscription(schedule.subscription()).orElseThrow();
        String endBehavior = params.has("end_behavior") ? params.required("end_behavior") : schedule.endBehavior();
        if (!endBehavior.equals("release")) {
            throw StripeError.invalid("end_behavior", "The sandbox runs schedules with end_behavior=release only.");
        }
        StoredSchedule updated = params.has("phases[0][items][0][price]")
                ? schedule.withPhases(phases(params, schedule, subscription), endBehavior)
                : schedule.withPhases(schedule.phases(), endBehavior);
        schedules.update(updated);
        return announce("subscription_schedule.updated", updated);
    }

    /** {@code POST /v1/subscription_schedules/{id}/release}: the subscription goes on by itself, as it is. */
    @Transactional
    public SubscriptionSchedule release(String id, StripeParams params) {
        params.allowOnly(Set.of(), Set.of("preserve_cancel_date"));
        StoredSchedule schedule = governingLocked(id);
        long now = objects.subscription(schedule.subscription())
                .map(s -> s.now(now()))
                .orElse(now());
        StoredSchedule released = schedule.released(now);
        schedules.update(released);
        return announce("subscription_schedule.released", released);
    }

    /** {@code POST /v1/subscription_schedules/{id}/cancel}: the schedule and its subscription end now. */
    @Transactional
    public SubscriptionSchedule cancel(String id, StripeParams params) {
        params.allowOnly(Set.of(), Set.of("invoice_now", "prorate"));
        StoredSchedule schedule = governingLocked(id);
        StoredSubscription subscription =
                objects.lockSubscription(schedule.subscription()).orElseThrow();
        long now = subscription.now(now());
        StoredSchedule canceled = schedule.canceled(now);
        schedules.update(canceled);
        if (!subscription.hasEnded()) {
            news.endAndAnnounce(subscription.ended(now, now));
        }
        return announce("subscription_schedule.canceled", canceled);
    }

    /**
     * A period of the subscription ends at {@code start}: it enters the phase that starts there (its price from now
     * on), and its schedule is released once its last phase has ended. Answers the subscription as it renews.
     */
    StoredSubscription atRenewal(StoredSubscription subscription, long start) {
        StoredSchedule schedule = schedules.lockGoverning(subscription.id()).orElse(null);
        if (schedule == null) {
            return subscription;
        }
        if (schedule.end() <= start) {
            StoredSchedule released = schedule.released(start);
            schedules.update(released);
            announce("subscription_schedule.released", released);
            return subscription;
        }
        StoredSchedule.Phase phase = schedule.phaseAt(start);
        if (phase == null || phase.price().equals(subscription.price())) {
            return subscription;
        }
        return subscription.withPrice(phase.price());
    }

    /** Its subscription ended at {@code at}: the schedule that governed it is canceled with it, as at Stripe. */
    void subscriptionEnded(String subscription, long at) {
        schedules.lockGoverning(subscription).ifPresent(schedule -> {
            StoredSchedule canceled = schedule.canceled(at);
            schedules.update(canceled);
            announce("subscription_schedule.canceled", canceled);
        });
    }

    /** As at Stripe: a subscription that a schedule governs takes no cancellation of its own. */
    void refuseCancellationUnderSchedule(String subscription) {
        schedules.governing(subscription).ifPresent(schedule -> {
            throw StripeError.invalid(
                    "cancel_at_period_end",
                    "The subscription is managed by the subscription schedule `" + schedule.id()
                            + "`, and updating any cancelation behavior directly is not allowed. Please update the"
                            + " schedule instead.");
        });
    }

    /** The phases of an update, each from where the one before ends; the first keeps the current phase's start. */
    private List<StoredSchedule.Phase> phases(
            StripeParams params, StoredSchedule schedule, StoredSubscription subscription) {
        List<StoredSchedule.Phase> phases = new ArrayList<>();
        for (int n = 0; params.has("phases[" + n + "][items][0][price]"); n++) {
            String key = "phases[" + n + "]";
            String priceId = params.required(key + "[items][0][price]");
            StoredPrice price = objects.price(priceId)
                    .orElseThrow(() -> StripeError.noSuchParam("price", priceId, key + "[items][0][price]"));
            Long quantity = params.integer(key + "[items][0][quantity]");
            Long start = params.integer(key + "[start_date]");
            long previousEnd = phases.isEmpty()
                    ? schedule.phases().get(0).startDate()
                    : phases.get(n - 1).endDate();
            if (start == null) {
                start = previousEnd;
            } else if (start != previousEnd) {
                throw StripeError.invalid(
                        key + "[start_date]",
                        n == 0
                                ? "You can not modify the start date of the current phase."
                                : "The start_date of a phase must be the end_date of the phase before it.");
            }
            Long end = params.integer(key + "[end_date]");
            String interval = params.text(key + "[duration][interval]");
            if (end == null) {
                Long count = params.integer(key + "[duration][interval_count]");
                end = start;
                for (long i = 0; i < (count == null ? 1 : count); i++) {
                    end = StripeSubscriptions.periodEnd(start, interval == null ? price.interval() : interval, end);
                }
            } else if (interval != null) {
                throw StripeError.invalid(key + "[duration]", "You may only specify one of end_date and duration.");
            }
            if (end <= start) {
                throw StripeError.invalid(key + "[end_date]", "The end_date must be after the start_date.");
            }
            if (n == 0 && end != subscription.currentPeriodEnd()) {
                throw StripeError.invalid(
                        key + "[end_date]",
                        "The sandbox changes phases at the end of a period only: the current phase ends at "
                                + subscription.currentPeriodEnd() + ".");
            }
            Long trialEnd = params.integer(key + "[trial_end]");
            Long trialing = n == 0 && subscription.isTrialing() ? subscription.trialEnd() : null;
            if (!java.util.Objects.equals(trialEnd, trialing)) {
                // Stripe takes a schedule's phases whole: a trialing phase restated without its trial_end ends the
                // trial at once, which the sandbox does not run; nor does it start a trial in a later phase
                throw StripeError.invalid(
                        key + "[trial_end]",
                        trialing == null
                                ? "The sandbox runs no trial in a phase but the current one of a trialing subscription."
                                : "The sandbox keeps the trial of a trialing subscription through its schedule only:"
                                        + " pass phases[0][trial_end]=" + trialing + " (its trial_end).");
            }
            phases.add(new StoredSchedule.Phase(start, end, priceId, quantity == null ? 1 : quantity, trialEnd));
        }
        return phases;
    }

    private StoredSchedule governingLocked(String id) {
        StoredSchedule schedule =
                schedules.lockSchedule(id).orElseThrow(() -> StripeError.noSuch("subscription_schedule", id, "id"));
        if (!schedule.governs()) {
            throw StripeError.state(
                    "You cannot update a subscription schedule that is currently in the `" + schedule.status()
                            + "` status. It must be in one of the following statuses: `not_started`, `active`.");
        }
        return schedule;
    }

    private SubscriptionSchedule announce(String type, StoredSchedule schedule) {
        SubscriptionSchedule view = views.schedule(schedule);
        events.emit(type, view);
        return view;
    }

    private long now() {
        return clock.instant().getEpochSecond();
    }
}
