package com.kvportal.billing;

import com.kvportal.account.Accounts;
import com.kvportal.billing.stripe.ProviderCheckout;
import com.kvportal.billing.stripe.ProviderSubscription;
import com.kvportal.billing.stripe.ProviderSubscriptionId;
import com.kvportal.common.PaymentProvider;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Writes what the provider says about subscriptions, whoever brings the news (a webhook event, the checkout
 * callback, the cancel call), under two rules: an older state never overwrites a newer one (each row keeps
 * the provider time of the state it shows; on a tie the later arrival wins), and an ended subscription stays
 * ended. Runs inside its caller's transaction.
 */
@Component
@Transactional(propagation = Propagation.MANDATORY)
class SubscriptionLedger {

    private static final Logger log = LoggerFactory.getLogger(SubscriptionLedger.class);

    private final StoredSubscriptions subscriptions;
    private final BillingAccounts billingAccounts;
    private final Plans plans;
    private final Accounts accounts;
    private final PaymentProvider provider;

    SubscriptionLedger(
            StoredSubscriptions subscriptions,
            BillingAccounts billingAccounts,
            Plans plans,
            Accounts accounts,
            PaymentProvider provider) {
        this.subscriptions = subscriptions;
        this.billingAccounts = billingAccounts;
        this.plans = plans;
        this.accounts = accounts;
        this.provider = provider;
    }

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
     * A completed checkout: links the organization named in the provider's session to the session's provider
     * customer (unless it has another one), then creates or updates the subscription.
     *
     * @return false (logged) when the session does not fit what we know
     */
    boolean completeCheckout(ProviderCheckout checkout, ProviderSubscription subscription, Instant stateAt) {
        UUID organizationId = checkout.organizationId();
        if (!checkout.isComplete() || organizationId == null) {
            log.info("Ignoring checkout {}: not complete", checkout.id());
            return false;
        }
        if (accounts.organization(organizationId).isEmpty()) {
            log.warn("Ignoring checkout {}: organization {} does not exist", checkout.id(), organizationId);
            return false;
        }
        if (!subscription.id().equals(checkout.subscription())
                || !subscription.customer().equals(checkout.customer())) {
            log.warn(
                    "Ignoring checkout {}: its subscription {} is not {}",
                    checkout.id(),
                    checkout.subscription(),
                    subscription.id());
            return false;
        }
        Optional<BillingAccount> account = billingAccounts.find(organizationId);
        if (account.isEmpty()) {
            UUID portalCustomer = checkout.portalCustomerId();
            if (portalCustomer == null
                    || !billingAccounts.linkIfMember(organizationId, subscription.customer(), portalCustomer)) {
                log.warn(
                        "Ignoring checkout {}: cannot link organization {} to provider customer {}",
                        checkout.id(),
                        organizationId,
                        subscription.customer());
                return false;
            }
            account = billingAccounts.find(organizationId);
        }
        if (account.isEmpty() || !account.get().providerCustomerId().equals(subscription.customer())) {
            log.warn(
                    "Ignoring checkout {}: organization {} has another provider customer than {}",
                    checkout.id(),
                    organizationId,
                    subscription.customer());
            return false;
        }
        return apply(account.get(), subscription, stateAt);
    }

    /** An invoice of the subscription was paid: a past-due subscription is active again. */
    void invoicePaid(UUID organizationId, ProviderSubscriptionId id, Instant stateAt) {
        changeStatus(organizationId, id, stateAt, "past_due", "active");
    }

    /** Charging an invoice of the subscription failed: a running subscription is past due. */
    void paymentFailed(UUID organizationId, ProviderSubscriptionId id, Instant stateAt) {
        changeStatus(organizationId, id, stateAt, "active", "past_due");
        changeStatus(organizationId, id, stateAt, "trialing", "past_due");
    }

    private void changeStatus(UUID organizationId, ProviderSubscriptionId id, Instant stateAt, String from, String to) {
        Optional<StoredSubscriptions.State> row = subscriptions.lock(id);
        if (row.isEmpty() || !row.get().organizationId().equals(organizationId)) {
            log.info("No subscription {} of organization {} to turn {}", id, organizationId, to);
            return;
        }
        if (!row.get().status().equals(from)) {
            return;
        }
        if (stateAt.isBefore(row.get().providerStateAt())) {
            log.info("Not turning subscription {} {}: the news is older than its state", id, to);
            return;
        }
        subscriptions.updateStatus(row.get().id(), to, stateAt);
        log.info("Subscription {} is {} now", id, to);
    }

    private boolean apply(BillingAccount account, ProviderSubscription subscription, Instant stateAt) {
        UUID planId = planFor(subscription.priceId()).id();
        if (subscriptions.insertIfAbsent(
                account.organizationId(), account.customerId(), planId, subscription, stateAt)) {
            log.info(
                    "Subscription {} of organization {} recorded as {}",
                    subscription.id(),
                    account.organizationId(),
                    subscription.status());
            return true;
        }
        StoredSubscriptions.State row = subscriptions.lock(subscription.id()).orElseThrow();
        if (!row.organizationId().equals(account.organizationId())) {
            log.warn(
                    "Ignoring subscription {}: it belongs to organization {}, not {}",
                    subscription.id(),
                    row.organizationId(),
                    account.organizationId());
            return false;
        }
        if (Subscription.ENDED.contains(row.status())) {
            log.info("Ignoring news of subscription {}: it has ended ({})", subscription.id(), row.status());
            return true;
        }
        if (stateAt.isBefore(row.providerStateAt())) {
            log.info(
                    "Ignoring news of subscription {} from {}: its state is from {}",
                    subscription.id(),
                    stateAt,
                    row.providerStateAt());
            return true;
        }
        subscriptions.update(row.id(), planId, subscription, stateAt);
        log.info("Subscription {} updated: {}", subscription.id(), subscription.status());
        return true;
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
