package com.kvportal.billing.providerevents;

import com.kvportal.billing.BillingEvent.InvoicePaid;
import com.kvportal.billing.BillingEvent.InvoicePaymentFailed;
import com.kvportal.billing.BillingEvent.RenewalInvoiceDrafted;
import com.kvportal.billing.InvoiceStatus;
import com.kvportal.billing.OrganizationPlans;
import com.kvportal.billing.Tier;
import com.kvportal.billing.checkout.CheckoutCompletion;
import com.kvportal.billing.invoice.InvoiceLedger;
import com.kvportal.billing.invoice.UsageInvoicing;
import com.kvportal.billing.stripe.ProviderCheckout;
import com.kvportal.billing.stripe.ProviderEvent;
import com.kvportal.billing.stripe.ProviderInvoice;
import com.kvportal.billing.stripe.ProviderSubscription;
import com.kvportal.billing.subscription.BillingAccount;
import com.kvportal.billing.subscription.BillingAccounts;
import com.kvportal.billing.subscription.SubscriptionLedger;
import com.kvportal.billing.subscription.SubscriptionRefresh;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Applies verified webhook events, each exactly once: the event id is recorded in the same transaction as its
 * effect (and as the domain events it publishes). Events about customers or subscriptions that are not ours
 * change nothing; an event that cannot be applied (the database, the provider or a listener fails) throws, so
 * that the webhook answers 5xx and the provider retries.
 */
@Component
@RequiredArgsConstructor
class ProviderEvents {

    /** What came of an event; the {@code outcome} tag of {@code kvportal.webhook.events}. */
    enum Outcome {
        APPLIED,
        DUPLICATE,
        IGNORED;

        String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private static final Logger log = LoggerFactory.getLogger(ProviderEvents.class);

    private final ProcessedEvents processed;
    private final SubscriptionLedger subscriptions;
    private final SubscriptionRefresh refresh;
    private final InvoiceLedger invoices;
    private final UsageInvoicing usageInvoicing;
    private final BillingAccounts billingAccounts;
    private final CheckoutCompletion checkouts;
    private final OrganizationPlans plans;
    private final ApplicationEventPublisher events;
    private final TransactionTemplate transaction;

    Outcome handle(ProviderEvent event) {
        Optional<ProviderEventType> handled = ProviderEventType.of(event.type());
        if (handled.isEmpty()) {
            log.debug("Ignoring event {} of type {}", event.id(), event.type());
            return Outcome.IGNORED;
        }
        ProviderEventType type = handled.get();
        if (type == ProviderEventType.CHECKOUT_SESSION_COMPLETED) {
            return checkoutCompleted(event);
        }
        if (type.isAboutASubscription()) {
            return subscriptionChanged(type, event);
        }
        Outcome outcome = transaction.execute(status -> {
            if (!firstApplication(event)) {
                return Outcome.DUPLICATE;
            }
            boolean applied =
                    switch (type) {
                        case INVOICE_CREATED -> onInvoice(event, null, this::invoiceCreated);
                        case INVOICE_PAID -> onInvoice(event, InvoiceStatus.PAID, this::invoicePaid);
                        case INVOICE_PAYMENT_FAILED -> onInvoice(event, InvoiceStatus.OPEN, this::paymentFailed);
                        case CHECKOUT_SESSION_COMPLETED,
                                CUSTOMER_SUBSCRIPTION_CREATED,
                                CUSTOMER_SUBSCRIPTION_UPDATED,
                                CUSTOMER_SUBSCRIPTION_DELETED -> throw new IllegalStateException("handled above");
                    };
            return applied ? Outcome.APPLIED : Outcome.IGNORED;
        });
        if (type == ProviderEventType.INVOICE_CREATED && outcome != Outcome.IGNORED) {
            // after commit, before the answer: the provider finalizes a renewal draft once its news is answered 2xx
            event.invoice(null).ifPresent(invoice -> usageInvoicing.sendRenewalCharge(invoice.id()));
        }
        return outcome;
    }

    private Outcome checkoutCompleted(ProviderEvent event) {
        Optional<ProviderCheckout> checkout = event.checkout();
        if (checkout.isEmpty()) {
            return Outcome.IGNORED;
        }
        if (processed.contains(event.id())) {
            log.info("Event {} was applied already", event.id());
            return Outcome.DUPLICATE;
        }
        return switch (checkouts.complete(checkout.get(), () -> firstApplication(event))) {
            case RECORDED -> Outcome.APPLIED;
            case DUPLICATE -> Outcome.DUPLICATE;
            case IGNORED -> Outcome.IGNORED;
        };
    }

    /** Records the event as applied, in the transaction of its effect; false (logged) when it was before. */
    private boolean firstApplication(ProviderEvent event) {
        if (processed.record(event.id(), event.type())) {
            return true;
        }
        log.info("Event {} was applied already", event.id());
        return false;
    }

    /**
     * Applies the subscription the event states, stamped with its {@code created}. News of the same second as the
     * recorded state that says otherwise is settled by the provider ({@link SubscriptionRefresh}): events arrive in
     * no particular order, and whole seconds cannot tell which of two is newer.
     */
    private Outcome subscriptionChanged(ProviderEventType type, ProviderEvent event) {
        Optional<ProviderSubscription> stated = event.subscription().map(type::stated);
        Optional<Outcome> decided = transaction.execute(status -> {
            if (!firstApplication(event)) {
                return Optional.of(Outcome.DUPLICATE);
            }
            if (stated.isEmpty()) {
                return Optional.of(Outcome.IGNORED);
            }
            return switch (subscriptions.applyEvent(stated.get(), event.created())) {
                case APPLIED -> Optional.of(Outcome.APPLIED);
                case NOT_OURS -> Optional.of(Outcome.IGNORED);
                case UNCERTAIN -> {
                    status.setRollbackOnly(); // applied, and recorded as such, below with the provider's state
                    yield Optional.empty();
                }
            };
        });
        if (decided.isPresent()) {
            return decided.get();
        }
        return refresh.settle(
                stated.orElseThrow(),
                now -> transaction.execute(status -> {
                    if (!firstApplication(event)) {
                        return Outcome.DUPLICATE;
                    }
                    return subscriptions.apply(now, event.created()) ? Outcome.APPLIED : Outcome.IGNORED;
                }));
    }

    /** What an invoice event does beyond recording the invoice. */
    @FunctionalInterface
    private interface InvoiceEffect {
        /**
         * @param newsAt when the provider stated it (the event's created)
         * @param recorded empty when the news was older than what is recorded (or about another organization)
         */
        void apply(
                UUID organizationId,
                ProviderInvoice invoice,
                Instant newsAt,
                Optional<InvoiceLedger.Recorded> recorded);
    }

    /**
     * Reads the event's invoice (with the status the event implies, or its own when null) and, when its customer
     * is ours, records it and applies {@code effect}.
     *
     * @return false when the invoice is unusable or not ours
     */
    private boolean onInvoice(ProviderEvent event, @Nullable InvoiceStatus impliedStatus, InvoiceEffect effect) {
        Optional<ProviderInvoice> parsed = event.invoice(impliedStatus);
        Optional<BillingAccount> account = parsed.flatMap(invoice -> ours(event, invoice));
        if (account.isEmpty()) {
            return false;
        }
        ProviderInvoice invoice = parsed.get();
        effect.apply(
                account.get().organizationId(),
                invoice,
                event.created(),
                invoices.record(account.get(), invoice, event.created()));
        return true;
    }

    /**
     * The invoice with its own status (a renewal's is draft); a renewal draft is announced with
     * {@link RenewalInvoiceDrafted} and the usage of the period that ended is billed on it ({@link UsageInvoicing}),
     * even when newer news of it is here already (when it is no longer a draft, the charge joins the next invoice).
     */
    private void invoiceCreated(
            UUID organizationId, ProviderInvoice invoice, Instant newsAt, Optional<InvoiceLedger.Recorded> recorded) {
        if (!invoice.isRenewalDraft()) {
            return;
        }
        Instant start = invoice.periodStart();
        Instant end = invoice.periodEnd();
        if (start == null || end == null) {
            log.warn("Renewal invoice {} has no period; nothing to announce", invoice.id());
            return;
        }
        Tier tier = subscriptions
                .tierOf(organizationId, invoice.subscription(), end)
                .orElseGet(() -> plans.effectivePlan(organizationId).tier());
        events.publishEvent(
                new RenewalInvoiceDrafted(organizationId, invoice.id(), invoice.customer(), tier, start, end));
        usageInvoicing.renewalDrafted(
                organizationId, invoice.id(), invoice.customer(), invoice.subscription(), tier, start, end);
    }

    /** Stale news of the invoice says nothing new about its subscription either. */
    private void invoicePaid(
            UUID organizationId, ProviderInvoice invoice, Instant newsAt, Optional<InvoiceLedger.Recorded> recorded) {
        recorded.ifPresent(news -> {
            if (news.turned(InvoiceStatus.PAID)) {
                events.publishEvent(
                        new InvoicePaid(organizationId, invoice.id(), invoice.amountPaidCents(), invoice.currency()));
            }
            if (invoice.subscription() != null) {
                subscriptions.invoicePaid(organizationId, invoice.subscription(), newsAt);
            }
        });
    }

    private void paymentFailed(
            UUID organizationId, ProviderInvoice invoice, Instant newsAt, Optional<InvoiceLedger.Recorded> recorded) {
        recorded.ifPresent(news -> {
            events.publishEvent(new InvoicePaymentFailed(organizationId, invoice.id(), invoice.attemptCount()));
            if (invoice.subscription() != null) {
                subscriptions.paymentFailed(organizationId, invoice.subscription(), newsAt);
            }
        });
    }

    private Optional<BillingAccount> ours(ProviderEvent event, ProviderInvoice invoice) {
        Optional<BillingAccount> account = billingAccounts.findByProviderCustomer(invoice.customer());
        if (account.isEmpty()) {
            log.info("Ignoring event {}: provider customer {} is not ours", event.id(), invoice.customer());
        }
        return account;
    }
}
