package com.kvportal.billing;

import com.kvportal.account.Accounts;
import com.kvportal.billing.stripe.ProviderCheckout;
import com.kvportal.billing.stripe.ProviderEvent;
import com.kvportal.billing.stripe.ProviderInvoice;
import com.kvportal.billing.stripe.ProviderSubscription;
import com.kvportal.billing.stripe.StripeGateway;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Applies verified webhook events, each exactly once: the event id is recorded in the same transaction as its
 * effect. Events about customers or subscriptions that are not ours change nothing; an event that cannot be
 * applied (the database or the provider fails) throws, so that the webhook answers 5xx and the provider retries.
 */
@Component
class WebhookEvents {

    static final String CHECKOUT_COMPLETED = "checkout.session.completed";
    static final String SUBSCRIPTION_CREATED = "customer.subscription.created";
    static final String SUBSCRIPTION_UPDATED = "customer.subscription.updated";
    static final String SUBSCRIPTION_DELETED = "customer.subscription.deleted";
    static final String INVOICE_PAID = "invoice.paid";
    static final String INVOICE_PAYMENT_FAILED = "invoice.payment_failed";

    private static final Set<String> HANDLED = Set.of(
            CHECKOUT_COMPLETED,
            SUBSCRIPTION_CREATED,
            SUBSCRIPTION_UPDATED,
            SUBSCRIPTION_DELETED,
            INVOICE_PAID,
            INVOICE_PAYMENT_FAILED);

    /** An invoice that is settled does not go back to being payable. */
    private static final Set<String> SETTLED = Set.of("paid", "void");

    private static final Logger log = LoggerFactory.getLogger(WebhookEvents.class);

    private final ProcessedEvents processed;
    private final SubscriptionLedger ledger;
    private final BillingAccounts billingAccounts;
    private final StoredInvoices invoices;
    private final StripeGateway gateway;
    private final Accounts accounts;
    private final TransactionTemplate transaction;
    private final Clock clock;

    WebhookEvents(
            ProcessedEvents processed,
            SubscriptionLedger ledger,
            BillingAccounts billingAccounts,
            StoredInvoices invoices,
            StripeGateway gateway,
            Accounts accounts,
            TransactionTemplate transaction,
            Clock clock) {
        this.processed = processed;
        this.ledger = ledger;
        this.billingAccounts = billingAccounts;
        this.invoices = invoices;
        this.gateway = gateway;
        this.accounts = accounts;
        this.transaction = transaction;
        this.clock = clock;
    }

    void handle(ProviderEvent event) {
        if (!HANDLED.contains(event.type())) {
            log.debug("Ignoring event {} of type {}", event.id(), event.type());
            return;
        }
        if (event.type().equals(CHECKOUT_COMPLETED)) {
            checkoutCompleted(event);
            return;
        }
        transaction.executeWithoutResult(status -> {
            if (!processed.record(event.id(), event.type())) {
                log.info("Event {} was applied already", event.id());
                return;
            }
            switch (event.type()) {
                case SUBSCRIPTION_CREATED, SUBSCRIPTION_UPDATED -> subscriptionChanged(event, false);
                case SUBSCRIPTION_DELETED -> subscriptionChanged(event, true);
                case INVOICE_PAID -> invoiceChanged(event, "paid");
                case INVOICE_PAYMENT_FAILED -> invoiceChanged(event, "open");
                default -> throw new IllegalStateException("unhandled " + event.type());
            }
        });
    }

    /**
     * The session names the subscription only by id, so its state is fetched from the provider first, outside
     * the transaction; that state is as new as the moment of the fetch.
     */
    private void checkoutCompleted(ProviderEvent event) {
        Optional<ProviderCheckout> checkout = event.checkout();
        if (checkout.isEmpty() || !checkout.get().isComplete()) {
            log.info("Ignoring event {}: the checkout session is not complete", event.id());
            return;
        }
        if (processed.contains(event.id())) {
            log.info("Event {} was applied already", event.id());
            return;
        }
        if (!concernsUs(checkout.get())) {
            log.info(
                    "Ignoring event {}: organization {} with provider customer {} is not ours",
                    event.id(),
                    checkout.get().organizationId(),
                    checkout.get().customer());
            return;
        }
        Instant asOf = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        Optional<ProviderSubscription> found =
                gateway.findSubscription(checkout.get().subscription());
        if (found.isEmpty()) {
            log.info(
                    "Ignoring event {}: the provider knows no subscription {}",
                    event.id(),
                    checkout.get().subscription());
            return;
        }
        ProviderSubscription subscription = found.get();
        transaction.executeWithoutResult(status -> {
            if (!processed.record(event.id(), event.type())) {
                log.info("Event {} was applied already", event.id());
                return;
            }
            ledger.completeCheckout(checkout.get(), subscription, asOf);
        });
    }

    /**
     * Checked before asking the provider, so that a session of a stranger is answered 200 at once instead of
     * failing (and being retried) on a subscription the provider may not show us.
     */
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

    private void subscriptionChanged(ProviderEvent event, boolean deleted) {
        Optional<ProviderSubscription> subscription = event.subscription();
        if (subscription.isEmpty()) {
            return;
        }
        ProviderSubscription state = subscription.get();
        if (deleted && !state.status().equals("canceled")) {
            state = new ProviderSubscription(
                    state.id(),
                    state.customer(),
                    "canceled",
                    state.priceId(),
                    state.currentPeriodStart(),
                    state.currentPeriodEnd(),
                    state.cancelAt());
        }
        ledger.apply(state, event.created());
    }

    private void invoiceChanged(ProviderEvent event, String status) {
        Optional<ProviderInvoice> parsed = event.invoice(status);
        if (parsed.isEmpty()) {
            return;
        }
        ProviderInvoice invoice = parsed.get();
        Optional<BillingAccount> account = billingAccounts.findByProviderCustomer(invoice.customer());
        if (account.isEmpty()) {
            log.info("Ignoring event {}: provider customer {} is not ours", event.id(), invoice.customer());
            return;
        }
        // stale news of the invoice says nothing new about its subscription either
        if (recordInvoice(account.get(), invoice, event.created()) && invoice.subscription() != null) {
            if (status.equals("paid")) {
                ledger.invoicePaid(account.get().organizationId(), invoice.subscription(), event.created());
            } else {
                ledger.paymentFailed(account.get().organizationId(), invoice.subscription(), event.created());
            }
        }
    }

    /** @return false when the news was older than what is recorded, or not about this organization */
    private boolean recordInvoice(BillingAccount account, ProviderInvoice invoice, Instant stateAt) {
        if (invoices.insertIfAbsent(account.organizationId(), invoice, stateAt)) {
            log.info(
                    "Invoice {} of organization {} recorded as {}",
                    invoice.id(),
                    account.organizationId(),
                    invoice.status());
            return true;
        }
        StoredInvoices.State row = invoices.lock(invoice.id()).orElseThrow();
        if (!row.organizationId().equals(account.organizationId())) {
            log.warn("Ignoring invoice {}: it belongs to organization {}", invoice.id(), row.organizationId());
            return false;
        }
        if (stateAt.isBefore(row.providerStateAt())
                || (SETTLED.contains(row.status()) && !SETTLED.contains(invoice.status()))) {
            log.info("Ignoring older news of invoice {} ({} stays {})", invoice.id(), invoice.status(), row.status());
            return false;
        }
        invoices.update(row.id(), invoice, stateAt);
        return true;
    }
}
