package com.kvportal.billing.subscription;

import com.kvportal.account.AccountEvent;
import com.kvportal.billing.BillingProblem.NoBillingAccount;
import com.kvportal.billing.BillingProblem.SubscriptionNotFound;
import com.kvportal.billing.ids.ProviderSubscriptionId;
import com.kvportal.billing.stripe.ProviderSubscription;
import com.kvportal.billing.stripe.StripeGateway;
import com.kvportal.common.AppBaseUrl;
import com.kvportal.security.Caller;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import lombok.RequiredArgsConstructor;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/** What a signed-in customer does with the organization's subscription: read it, manage, cancel. */
@Service
@RequiredArgsConstructor
public class Subscriptions {

    public static final String DASHBOARD_PATH = "/dashboard/billing";

    private final StoredSubscriptions subscriptions;
    private final BillingAccounts billingAccounts;
    private final SubscriptionLedger ledger;
    private final StripeGateway gateway;
    private final PlanChanges planChanges;
    private final AppBaseUrl baseUrl;
    private final TransactionTemplate transaction;
    private final Clock clock;

    /** The organization's live subscription. */
    public Subscription live(Caller caller) {
        return subscriptions.live(caller.organizationId()).orElseThrow(SubscriptionNotFound::new);
    }

    /** A customer-portal session of the organization's provider customer. */
    public String portal(Caller caller) {
        BillingAccount account = billingAccounts.find(caller.organizationId()).orElseThrow(NoBillingAccount::new);
        return gateway.createPortalSession(account.providerCustomerId(), baseUrl.resolve(DASHBOARD_PATH));
    }

    /**
     * The organization is deleted: its live subscription ends now at the provider, in the deletion's transaction (a
     * provider that cannot be reached fails the deletion), and the ledger records the end, which bills the last
     * period's overage on a final invoice as any end does ({@link SubscriptionEnded}).
     */
    @EventListener
    void organizationDeleted(AccountEvent.OrganizationDeleted deleted) {
        subscriptions.live(deleted.organizationId()).ifPresent(live -> {
            Instant asOf = clock.instant().truncatedTo(ChronoUnit.SECONDS);
            ProviderSubscription ended = gateway.cancelNow(live.providerSubscriptionId());
            ledger.apply(ended.deleted(), asOf);
        });
    }

    /**
     * Sets the live subscription to end with its current period; a second call changes nothing. A plan change
     * scheduled for the period's end is called off first (the provider's schedule released).
     */
    public Subscription cancel(Caller caller) {
        return planChanges.oneAtATime(caller.organizationId(), () -> {
            Subscription live = live(caller);
            if (live.cancelAt() != null) {
                return live;
            }
            ProviderSubscriptionId id = live.providerSubscriptionId();
            planChanges.callOffScheduled(live, id);
            Instant asOf = clock.instant().truncatedTo(ChronoUnit.SECONDS);
            ProviderSubscription updated = gateway.cancelAtPeriodEnd(id);
            transaction.executeWithoutResult(status -> ledger.apply(updated, asOf));
            return subscriptions.byProviderId(id).orElseThrow();
        });
    }
}
