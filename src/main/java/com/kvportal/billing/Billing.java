package com.kvportal.billing;

import com.kvportal.account.Accounts;
import com.kvportal.account.Organization;
import com.kvportal.billing.BillingProblems.AlreadySubscribed;
import com.kvportal.billing.BillingProblems.NoBillingAccount;
import com.kvportal.billing.BillingProblems.SubscriptionNotFound;
import com.kvportal.billing.BillingProblems.TierNotPurchasable;
import com.kvportal.billing.BillingProblems.UnknownTier;
import com.kvportal.billing.stripe.ProviderCheckout;
import com.kvportal.billing.stripe.ProviderCustomerId;
import com.kvportal.billing.stripe.ProviderSubscription;
import com.kvportal.billing.stripe.ProviderSubscriptionId;
import com.kvportal.billing.stripe.StripeGateway;
import com.kvportal.billing.stripe.StripeGateway.CheckoutSession;
import com.kvportal.billing.stripe.StripeGateway.PaymentProviderUnavailable;
import com.kvportal.common.AppBaseUrl;
import com.kvportal.common.PaymentProvider;
import com.kvportal.security.Caller;
import jakarta.validation.constraints.NotNull;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Billing: plans, the organization's subscription and invoices, checkout, the provider's customer portal and
 * cancellation. Other features ask it for an organization's {@linkplain #effectivePlan effective plan}.
 */
@Service
public class Billing {

    static final String SUCCESS_PATH = "/api/v1/billing/checkout/success";
    static final String CANCEL_PATH = "/api/v1/billing/checkout/cancel";
    static final String DASHBOARD_PATH = "/dashboard/billing";

    private static final Logger log = LoggerFactory.getLogger(Billing.class);
    private static final Pattern SESSION_ID = Pattern.compile("cs_[A-Za-z0-9_]{1,250}");

    /** Striped: bounded memory, and organizations rarely share a stripe at the moment of their first checkout. */
    private static final Lock[] CUSTOMER_CREATION = new Lock[64];

    static {
        for (int i = 0; i < CUSTOMER_CREATION.length; i++) {
            CUSTOMER_CREATION[i] = new ReentrantLock();
        }
    }

    private final Plans plans;
    private final StoredSubscriptions subscriptions;
    private final StoredInvoices invoices;
    private final BillingAccounts billingAccounts;
    private final SubscriptionLedger ledger;
    private final StripeGateway gateway;
    private final Accounts accounts;
    private final PaymentProvider provider;
    private final AppBaseUrl baseUrl;
    private final TransactionTemplate transaction;
    private final Clock clock;

    Billing(
            Plans plans,
            StoredSubscriptions subscriptions,
            StoredInvoices invoices,
            BillingAccounts billingAccounts,
            SubscriptionLedger ledger,
            StripeGateway gateway,
            Accounts accounts,
            PaymentProvider provider,
            AppBaseUrl baseUrl,
            TransactionTemplate transaction,
            Clock clock) {
        this.plans = plans;
        this.subscriptions = subscriptions;
        this.invoices = invoices;
        this.billingAccounts = billingAccounts;
        this.ledger = ledger;
        this.gateway = gateway;
        this.accounts = accounts;
        this.provider = provider;
        this.baseUrl = baseUrl;
        this.transaction = transaction;
        this.clock = clock;
    }

    record CheckoutRequest(@NotNull(message = "is required") @Nullable String tier) {}

    /** Every plan, cheapest first. */
    public List<Plan> plans() {
        return plans.all();
    }

    /**
     * The plan the organization has now: its subscription's plan while that is active, trialing or past due, and
     * the free plan otherwise.
     */
    public Plan effectivePlan(UUID organizationId) {
        return subscriptions.granting(organizationId).map(Subscription::plan).orElseGet(() -> plans.byTier(Tier.FREE));
    }

    Subscription subscription(Caller caller) {
        return subscriptions.live(caller.organizationId()).orElseThrow(SubscriptionNotFound::new);
    }

    List<Invoice> invoices(Caller caller) {
        return invoices.ofOrganization(caller.organizationId());
    }

    /** Starts a hosted checkout for the tier, with the organization's one provider customer. */
    CheckoutSession checkout(Caller caller, CheckoutRequest request) {
        Tier tier = Tier.of(Objects.requireNonNull(request.tier())).orElseThrow(() -> new UnknownTier(request.tier()));
        if (tier == Tier.FREE) {
            throw new TierNotPurchasable(tier);
        }
        Plan plan = plans.byTier(tier);
        if (subscriptions
                .live(caller.organizationId())
                .filter(s -> s.planId().equals(plan.id()))
                .isPresent()) {
            throw new AlreadySubscribed(tier);
        }
        ProviderCustomerId customer = providerCustomer(caller);
        return gateway.createCheckout(
                customer,
                caller.organizationId(),
                caller.customerId(),
                provider.pricePro(),
                baseUrl.resolve(SUCCESS_PATH) + "?session_id={CHECKOUT_SESSION_ID}",
                baseUrl.resolve(CANCEL_PATH));
    }

    /**
     * The organization's provider customer, made on its first checkout. No database connection is held while
     * the provider is called (the sandbox answers from this very service and pool), so the guards are: one
     * creation at a time per organization in this instance, an idempotency key of the organization at the
     * provider (a concurrent or retried create from any instance answers the same customer), and the primary
     * key of billing_accounts, which keeps the first link if two instances race.
     */
    private ProviderCustomerId providerCustomer(Caller caller) {
        UUID organizationId = caller.organizationId();
        Optional<BillingAccount> existing = billingAccounts.find(organizationId);
        if (existing.isPresent()) {
            return existing.get().providerCustomerId();
        }
        Lock lock = CUSTOMER_CREATION[Math.floorMod(organizationId.hashCode(), CUSTOMER_CREATION.length)];
        lock.lock();
        try {
            existing = billingAccounts.find(organizationId);
            if (existing.isPresent()) {
                return existing.get().providerCustomerId();
            }
            Organization organization = accounts.organization(organizationId)
                    .orElseThrow(() -> new IllegalStateException(
                            "organization " + organizationId + " of a signed-in caller does not exist"));
            // a provider failure throws here, before anything is recorded
            ProviderCustomerId created =
                    gateway.createCustomer(organizationId, organization.ownerEmail(), organization.name());
            billingAccounts.insertIfAbsent(new BillingAccount(organizationId, created, caller.customerId()));
            BillingAccount stored = billingAccounts
                    .find(organizationId)
                    .orElseThrow(() -> new IllegalStateException(
                            "provider customer " + created + " is linked to another organization"));
            if (stored.providerCustomerId().equals(created)) {
                log.info("Organization {} has provider customer {}", organizationId, created);
            } else {
                log.warn(
                        "Organization {} keeps provider customer {}; {} was made concurrently and is unused",
                        organizationId,
                        stored.providerCustomerId(),
                        created);
            }
            return stored.providerCustomerId();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The checkout's success callback. Trusts nothing in the URL: it asks the provider for the session and, when
     * that is complete, records the subscription of the organization named in the provider's session.
     *
     * @return true when the subscription is recorded; false while it is pending (or the session is unknown)
     */
    boolean completeCheckout(@Nullable String sessionId) {
        if (sessionId == null || !SESSION_ID.matcher(sessionId).matches()) {
            return false;
        }
        try {
            Instant asOf = clock.instant().truncatedTo(ChronoUnit.SECONDS);
            Optional<ProviderCheckout> checkout = gateway.retrieveCheckout(sessionId);
            if (checkout.isEmpty() || !checkout.get().isComplete()) {
                return false;
            }
            ProviderSubscription subscription =
                    gateway.retrieveSubscription(checkout.get().subscription());
            return Boolean.TRUE.equals(
                    transaction.execute(status -> ledger.completeCheckout(checkout.get(), subscription, asOf)));
        } catch (PaymentProviderUnavailable e) {
            // the webhook will bring the news; the page says it is pending
            return false;
        }
    }

    /** A customer-portal session of the organization's provider customer. */
    String portal(Caller caller) {
        BillingAccount account = billingAccounts.find(caller.organizationId()).orElseThrow(NoBillingAccount::new);
        return gateway.createPortalSession(account.providerCustomerId(), baseUrl.resolve(DASHBOARD_PATH));
    }

    /** Sets the live subscription to end with its current period; a second call changes nothing. */
    Subscription cancel(Caller caller) {
        Subscription live = subscription(caller);
        if (live.cancelAt() != null) {
            return live;
        }
        ProviderSubscriptionId id = new ProviderSubscriptionId(live.providerSubscriptionId());
        Instant asOf = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        ProviderSubscription updated = gateway.cancelAtPeriodEnd(id);
        transaction.executeWithoutResult(status -> ledger.apply(updated, asOf));
        return subscriptions.byProviderId(id).orElseThrow();
    }
}
