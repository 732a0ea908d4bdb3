package com.kvportal.billing.subscription;

import com.kvportal.billing.BillingEvent.SubscriptionPlanChangeCanceled;
import com.kvportal.billing.BillingEvent.SubscriptionPlanChangeScheduled;
import com.kvportal.billing.BillingProblem.AlreadySubscribed;
import com.kvportal.billing.BillingProblem.NoScheduledChange;
import com.kvportal.billing.BillingProblem.SubscriptionNotFound;
import com.kvportal.billing.BillingProblem.UnknownTier;
import com.kvportal.billing.BillingProblem.UseCancel;
import com.kvportal.billing.Plan;
import com.kvportal.billing.SubscriptionStatus;
import com.kvportal.billing.Tier;
import com.kvportal.billing.ids.ProviderSubscriptionId;
import com.kvportal.billing.stripe.InvoicePreview;
import com.kvportal.billing.stripe.ProviderIdempotencyKeys;
import com.kvportal.billing.stripe.ProviderSubscription;
import com.kvportal.billing.stripe.StripeGateway;
import com.kvportal.billing.stripe.StripeGateway.ScheduledPrice;
import com.kvportal.common.WireName;
import com.kvportal.common.database.AdvisoryLocks;
import com.kvportal.common.validation.Required;
import com.kvportal.common.web.CommonProblem;
import com.kvportal.common.web.ProblemException;
import com.kvportal.security.Caller;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Supplier;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A live subscription moved to another paid plan. An upgrade (a higher price) takes effect at once at the provider, as
 * a new period from now with the old plan's unused time credited on an invoice charged at once; the period it cuts
 * short is billed for its storage like any period that ended ({@code SubscriptionPlanChanged}). A downgrade (a lower
 * price) waits for the end of the current period, through a subscription schedule at the provider; the period runs out
 * and is billed on the old plan, and the renewal starts the new one. One change waits at a time: a second replaces
 * it, an upgrade or a cancellation calls it off, and {@link #cancelScheduled} takes it back. Every refusal is decided
 * before the provider is called, so a refusal changes nothing anywhere.
 */
@Service
@RequiredArgsConstructor
public class PlanChanges {

    private static final PerOrganization CHANGING = new PerOrganization(64);

    /** The class of the advisory locks of plan changes ({@code pg_locks.classid}): "PC" in ASCII. */
    static final int ADVISORY_LOCK_CLASS = 0x5043;

    private final AdvisoryLocks acrossInstances;
    private final StoredSubscriptions subscriptions;
    private final Plans plans;
    private final SubscriptionLedger ledger;
    private final StripeGateway gateway;
    private final TransactionTemplate transaction;
    private final ApplicationEventPublisher events;
    private final Clock clock;

    public record ChangeRequest(
            @Schema(
                            description = "The paid tier to move to; free is reached by canceling.",
                            allowableValues = {"free", "pro", "team"},
                            example = "team")
                    @Required
                    @Nullable
                    String tier) {}

    /**
     * The subscription after the change, and when the new plan takes effect: now (an upgrade: the provider's new
     * period start) or at the end of the current period (a downgrade, then in {@code subscription.scheduledChange}).
     */
    public record Changed(Subscription subscription, Instant effectiveAt) {}

    /** The live subscription, the plan it moves to and that plan's price at the provider. */
    private record Target(Subscription live, ProviderSubscriptionId id, Plan plan, String price) {}

    /**
     * Moves the organization's live subscription to the tier: an upgrade at once, a downgrade at the period's end.
     * Changes of one organization's subscription run one at a time, each deciding on the subscription as the one
     * before left it: the same downgrade asked twice at once is made once and answered to both.
     */
    public Changed change(Caller caller, ChangeRequest request) {
        return oneAtATime(caller.organizationId(), () -> {
            Target target = target(caller, request.tier());
            return target.plan().costsMoreThan(target.live().plan()) ? upgrade(target) : downgrade(target);
        });
    }

    /**
     * Runs what changes the organization's subscription at the provider (a plan change, calling one off, a
     * cancellation) after any other such change of it, in this instance or another, has ended: this instance's stripe
     * lock first, then the organization's advisory lock in the database, held on a connection outside the pool while
     * the provider is called (the sandbox answers from this very service and pool). A change that waits too long for
     * the other answers 502 {@code payment_provider_unavailable}, having changed nothing.
     */
    <T> T oneAtATime(UUID organizationId, Supplier<T> change) {
        return CHANGING.oneAtATime(
                organizationId,
                () -> acrossInstances.holding(ADVISORY_LOCK_CLASS, organizationId, change, PlanChanges::stillBusy));
    }

    private static ProblemException stillBusy() {
        return new ProblemException(
                CommonProblem.PAYMENT_PROVIDER_UNAVAILABLE,
                "Another change of this organization's subscription is still under way at the payment provider;"
                        + " nothing was changed. Try again shortly.");
    }

    /** The upgrade, at once; a downgrade that waited is called off first. */
    private Changed upgrade(Target target) {
        Instant asOf = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        callOffScheduled(target.live(), target.id());
        Instant periodStart = Objects.requireNonNullElse(
                target.live().currentPeriodStart(), target.live().createdAt());
        Instant trialEnd = trialEndKept(target.live());
        ProviderSubscription changed = gateway.changePrice(
                target.id(),
                target.price(),
                trialEnd,
                ProviderIdempotencyKeys.planChange(target.id(), periodStart, target.price()));
        transaction.executeWithoutResult(status -> ledger.apply(changed, asOf));
        Subscription after = subscriptions.byProviderId(target.id()).orElseThrow();
        // a new period starts now; during a trial the trial's period goes on, on the new plan from now
        Instant effectiveAt = trialEnd == null ? changed.currentPeriodStart() : asOf;
        return new Changed(after, Objects.requireNonNullElse(effectiveAt, asOf));
    }

    /**
     * The end of the trial the subscription is in, which a change keeps (the price changes within the trial and
     * nothing is invoiced before it ends); null out of a trial.
     */
    private static @Nullable Instant trialEndKept(Subscription live) {
        return live.status() == SubscriptionStatus.TRIALING ? live.trialEnd() : null;
    }

    /**
     * The downgrade, at the end of the current period, replacing any change scheduled before (the same change again
     * answers it as it is). A subscription set to end at the period's end is resumed first: asking for the cheaper
     * plan next period means going on with it.
     */
    private Changed downgrade(Target target) {
        Subscription live = target.live();
        ScheduledChange before = live.scheduledChange();
        if (before != null && before.tier() == target.plan().tier()) {
            return new Changed(live, before.effectiveAt());
        }
        if (live.cancelAt() != null) {
            Instant asOf = clock.instant().truncatedTo(ChronoUnit.SECONDS);
            ProviderSubscription resumed = gateway.resume(target.id());
            transaction.executeWithoutResult(status -> ledger.apply(resumed, asOf));
        }
        ScheduledPrice scheduled = gateway.schedulePriceAtPeriodEnd(target.id(), target.price());
        transaction.executeWithoutResult(status -> {
            if (!subscriptions.scheduleChange(
                    live.id(), target.plan().id(), scheduled.effectiveAt(), scheduled.scheduleId())) {
                return; // recorded already, by a caller of another instance who asked for the same
            }
            events.publishEvent(new SubscriptionPlanChangeScheduled(
                    live.organizationId(),
                    live.id(),
                    live.plan().tier(),
                    target.plan().tier(),
                    scheduled.effectiveAt(),
                    live.status()));
        });
        Subscription after = subscriptions.byProviderId(target.id()).orElseThrow();
        return new Changed(after, scheduled.effectiveAt());
    }

    /** Takes back the change scheduled for the end of the period; the subscription stays on its plan. */
    public Subscription cancelScheduled(Caller caller) {
        return oneAtATime(caller.organizationId(), () -> {
            Subscription live = subscriptions.live(caller.organizationId()).orElseThrow(SubscriptionNotFound::new);
            if (live.scheduledChange() == null) {
                throw new NoScheduledChange(live.plan().tier());
            }
            ProviderSubscriptionId id = live.providerSubscriptionId();
            callOffScheduled(live, id);
            return subscriptions.byProviderId(id).orElseThrow();
        });
    }

    /**
     * Releases the provider's schedule of the subscription, if it has one (before an upgrade or a cancellation, which
     * the provider does not take on a subscription that a schedule governs, and which replace a scheduled change),
     * and forgets the change it was to make. The provider first: a failure there leaves the change scheduled here as
     * it still is there.
     */
    void callOffScheduled(Subscription live, ProviderSubscriptionId id) {
        gateway.releaseScheduleOf(id);
        ScheduledChange scheduled = live.scheduledChange();
        if (scheduled == null) {
            return;
        }
        transaction.executeWithoutResult(status -> {
            if (subscriptions.clearScheduledChange(live.id())) {
                events.publishEvent(new SubscriptionPlanChangeCanceled(
                        live.organizationId(), live.id(), live.plan().tier(), scheduled.tier(), live.status()));
            }
        });
    }

    /**
     * What {@link #change} to the tier would charge now, as the provider previews it; a downgrade charges nothing
     * now (the renewal bills the new price), nor does an upgrade during a trial (the trial's end bills the new
     * price). Changes nothing.
     */
    public InvoicePreview preview(Caller caller, @Nullable String tier) {
        Target target = target(caller, tier);
        if (!target.plan().costsMoreThan(target.live().plan()) || trialEndKept(target.live()) != null) {
            return InvoicePreview.nothing();
        }
        return gateway.previewPriceChange(target.id(), target.price());
    }

    /**
     * The change asked for, or its refusal: an unknown tier, free (cancel instead), no live subscription, the tier
     * it has, a tier without a price at the provider.
     */
    private Target target(Caller caller, @Nullable String tierName) {
        String name = Objects.requireNonNullElse(tierName, "");
        Tier tier = WireName.of(Tier.class, name).orElseThrow(() -> new UnknownTier(name));
        if (tier == Tier.FREE) {
            throw new UseCancel();
        }
        Subscription live = subscriptions.live(caller.organizationId()).orElseThrow(SubscriptionNotFound::new);
        Plan current = live.plan();
        if (current.tier() == tier) {
            throw new AlreadySubscribed(current.tier(), tier);
        }
        Plan plan = plans.byTier(tier);
        String price = plans.providerPrice(tier);
        return new Target(live, live.providerSubscriptionId(), plan, price);
    }
}
