package com.kvportal.billing.subscription;

import com.kvportal.billing.BillingProblem.AlreadySubscribed;
import com.kvportal.billing.BillingProblem.DowngradeNotAvailable;
import com.kvportal.billing.BillingProblem.SubscriptionNotFound;
import com.kvportal.billing.BillingProblem.UnknownTier;
import com.kvportal.billing.BillingProblem.UseCancel;
import com.kvportal.billing.Plan;
import com.kvportal.billing.Tier;
import com.kvportal.billing.stripe.InvoicePreview;
import com.kvportal.billing.stripe.ProviderIdempotencyKeys;
import com.kvportal.billing.stripe.ProviderSubscription;
import com.kvportal.billing.stripe.ProviderSubscriptionId;
import com.kvportal.billing.stripe.StripeGateway;
import com.kvportal.common.WireName;
import com.kvportal.common.validation.Required;
import com.kvportal.security.Caller;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A live subscription moved to another paid plan. An upgrade (a higher price) takes effect at once at the provider, as
 * a new period from now with the old plan's unused time credited on an invoice charged at once; the period it cuts
 * short is billed for its storage like any period that ended ({@code SubscriptionPlanChanged}). Every refusal is
 * decided before the provider is called, so a refusal changes nothing anywhere.
 */
@Service
@RequiredArgsConstructor
public class PlanChanges {

    private final StoredSubscriptions subscriptions;
    private final Plans plans;
    private final SubscriptionLedger ledger;
    private final StripeGateway gateway;
    private final TransactionTemplate transaction;
    private final Clock clock;

    public record ChangeRequest(
            @Schema(
                            description = "The paid tier to move to; free is reached by canceling.",
                            allowableValues = {"free", "pro", "team"},
                            example = "team")
                    @Required
                    @Nullable
                    String tier) {}

    /** The subscription after the change, and when the new plan took effect (the provider's new period start). */
    public record Changed(Subscription subscription, Instant effectiveAt) {}

    /** The live subscription, the plan it moves to and that plan's price at the provider. */
    private record Target(Subscription live, ProviderSubscriptionId id, Plan plan, String price) {}

    /** Moves the organization's live subscription to the tier (an upgrade, at once). */
    public Changed change(Caller caller, ChangeRequest request) {
        Target target = target(caller, request.tier());
        Instant asOf = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        Instant periodStart = Objects.requireNonNullElse(
                target.live().currentPeriodStart(), target.live().createdAt());
        ProviderSubscription changed = gateway.changePrice(
                target.id(),
                target.price(),
                ProviderIdempotencyKeys.planChange(target.id().value(), periodStart, target.price()));
        transaction.executeWithoutResult(status -> ledger.apply(changed, asOf));
        Subscription after = subscriptions.byProviderId(target.id()).orElseThrow();
        return new Changed(after, Objects.requireNonNullElse(changed.currentPeriodStart(), asOf));
    }

    /** What {@link #change} to the tier would charge now, as the provider previews it; changes nothing. */
    public InvoicePreview preview(Caller caller, @Nullable String tier) {
        Target target = target(caller, tier);
        return gateway.previewPriceChange(target.id(), target.price());
    }

    /**
     * The change asked for, or its refusal: an unknown tier, free (cancel instead), no live subscription, the tier
     * it has, a cheaper plan (not yet), a tier without a price at the provider.
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
            throw new AlreadySubscribed(tier);
        }
        Plan plan = plans.byTier(tier);
        if (!plan.costsMoreThan(current)) {
            throw new DowngradeNotAvailable(current.tier(), tier);
        }
        String price = plans.providerPrice(tier);
        return new Target(live, new ProviderSubscriptionId(live.providerSubscriptionId()), plan, price);
    }
}
