package com.kvportal.billing.checkout;

import com.kvportal.account.Accounts;
import com.kvportal.billing.stripe.ProviderCheckout;
import com.kvportal.billing.stripe.ProviderSubscription;
import com.kvportal.billing.stripe.StripeGateway;
import com.kvportal.billing.subscription.BillingAccount;
import com.kvportal.billing.subscription.BillingAccounts;
import com.kvportal.billing.subscription.SubscriptionLedger;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import lombok.RequiredArgsConstructor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The one completion of a hosted checkout, whoever reports it (the success callback, or the webhook's
 * {@code checkout.session.completed}): links the organization named in the provider's session to the session's
 * provider customer (unless it has another one), then creates or updates its subscription. Safe to run twice, in
 * any order.
 */
@Component
@RequiredArgsConstructor
public class CheckoutCompletion {

    /** What came of a completion. */
    public enum Outcome {
        /** The subscription is recorded. */
        RECORDED,
        /** The event was applied before. */
        DUPLICATE,
        /** The session does not fit what we know (not complete, not ours, unknown subscription); logged. */
        IGNORED
    }

    private static final Logger log = LoggerFactory.getLogger(CheckoutCompletion.class);

    private final BillingAccounts billingAccounts;
    private final SubscriptionLedger ledger;
    private final StoredCheckoutSessions sessions;
    private final StripeGateway gateway;
    private final Accounts accounts;
    private final TransactionTemplate transaction;
    private final Clock clock;

    /**
     * Completes the checkout. The session names the subscription only by id, so its state is fetched from the
     * provider first, outside the transaction; that state is as new as the moment of the fetch.
     *
     * @param firstReport asked inside the completion's transaction: whether this is the first time its report applies
     *     (the provider's event records its id, so that its effect and that record commit together; the success
     *     callback answers true); false makes it a duplicate
     * @throws StripeGateway.PaymentProviderUnavailable when the provider cannot be asked
     */
    public Outcome complete(ProviderCheckout checkout, BooleanSupplier firstReport) {
        if (!checkout.isComplete()) {
            log.info("Ignoring checkout {}: not complete", checkout.id());
            return Outcome.IGNORED;
        }
        // checked before asking the provider, so that a session of a stranger is answered at once instead of
        // failing (and being retried) on a subscription the provider may not show us
        if (!concernsUs(checkout)) {
            log.info(
                    "Ignoring checkout {}: organization {} with provider customer {} is not ours",
                    checkout.id(),
                    checkout.organizationId(),
                    checkout.customer());
            return Outcome.IGNORED;
        }
        Instant asOf = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        Optional<ProviderSubscription> subscription = gateway.findSubscription(checkout.subscription());
        if (subscription.isEmpty()) {
            log.info(
                    "Ignoring checkout {}: the provider knows no subscription {}",
                    checkout.id(),
                    checkout.subscription());
            return Outcome.IGNORED;
        }
        return transaction.execute(status -> {
            if (!firstReport.getAsBoolean()) {
                return Outcome.DUPLICATE;
            }
            return record(checkout, subscription.get(), asOf) ? Outcome.RECORDED : Outcome.IGNORED;
        });
    }

    private boolean concernsUs(ProviderCheckout checkout) {
        UUID organizationId = checkout.organizationId();
        if (organizationId == null || accounts.organization(organizationId).isEmpty()) {
            return false;
        }
        Optional<BillingAccount> account = billingAccounts.find(organizationId);
        return account.isPresent()
                ? account.get().providerCustomerId().equals(checkout.customer())
                : checkout.portalCustomerId() != null;
    }

    /** In the transaction: the link, then the subscription. */
    private boolean record(ProviderCheckout checkout, ProviderSubscription subscription, Instant stateAt) {
        UUID organizationId = checkout.organizationId();
        if (organizationId == null) {
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
        if (!ledger.apply(account.get(), subscription, stateAt)) {
            return false;
        }
        sessions.settle(checkout.id(), StoredCheckoutSessions.Status.COMPLETE);
        return true;
    }
}
