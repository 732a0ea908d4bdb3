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
import org.slf4j.event.Level;
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
            return ignored(Level.INFO, checkout, "not complete");
        }
        // checked before asking the provider, so that a session of a stranger is answered at once instead of
        // failing (and being retried) on a subscription the provider may not show us
        if (!concernsUs(checkout)) {
            return ignored(
                    Level.INFO,
                    checkout,
                    "organization {} with provider customer {} is not ours",
                    checkout.organizationId(),
                    checkout.customer());
        }
        Instant asOf = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        Optional<ProviderSubscription> subscription = gateway.findSubscription(checkout.subscription());
        if (subscription.isEmpty()) {
            return ignored(Level.INFO, checkout, "the provider knows no subscription {}", checkout.subscription());
        }
        return transaction.execute(status -> {
            if (!firstReport.getAsBoolean()) {
                return Outcome.DUPLICATE;
            }
            return record(checkout, subscription.get(), asOf);
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
    private Outcome record(ProviderCheckout checkout, ProviderSubscription subscription, Instant stateAt) {
        UUID organizationId = checkout.organizationId();
        if (organizationId == null) {
            return Outcome.IGNORED;
        }
        if (!subscription.id().equals(checkout.subscription())
                || !subscription.customer().equals(checkout.customer())) {
            return ignored(
                    Level.WARN, checkout, "its subscription {} is not {}", checkout.subscription(), subscription.id());
        }
        Optional<BillingAccount> account = billingAccounts.find(organizationId);
        if (account.isEmpty()) {
            UUID portalCustomer = checkout.portalCustomerId();
            if (portalCustomer == null
                    || !billingAccounts.linkIfMember(organizationId, subscription.customer(), portalCustomer)) {
                return ignored(
                        Level.WARN,
                        checkout,
                        "cannot link organization {} to provider customer {}",
                        organizationId,
                        subscription.customer());
            }
            account = billingAccounts.find(organizationId);
        }
        if (account.isEmpty() || !account.get().providerCustomerId().equals(subscription.customer())) {
            return ignored(
                    Level.WARN,
                    checkout,
                    "organization {} has another provider customer than {}",
                    organizationId,
                    subscription.customer());
        }
        if (!ledger.apply(account.get(), subscription, stateAt)) {
            return Outcome.IGNORED;
        }
        sessions.settle(checkout.id(), StoredCheckoutSessions.Status.COMPLETE);
        return Outcome.RECORDED;
    }

    /**
     * The checkout is ignored, and why is logged as "Ignoring checkout (its id): (why)": at info when it is not for
     * us (yet), at warn when it contradicts what we know.
     */
    private static Outcome ignored(Level level, ProviderCheckout checkout, String why, Object... details) {
        Object[] arguments = new Object[details.length + 1];
        arguments[0] = checkout.id();
        System.arraycopy(details, 0, arguments, 1, details.length);
        log.atLevel(level).log("Ignoring checkout {}: " + why, arguments);
        return Outcome.IGNORED;
    }
}
