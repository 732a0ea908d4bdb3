package com.kvportal.billing.invoice;

import com.kvportal.billing.BillingEvent.UsageChargeBilled;
import com.kvportal.billing.Plan;
import com.kvportal.billing.UsageCharge;
import com.kvportal.billing.ids.ProviderInvoiceId;
import com.kvportal.billing.invoice.UsageChargeOutbox.Queued;
import com.kvportal.billing.stripe.InvoiceItem;
import com.kvportal.billing.stripe.InvoiceItemRequest;
import com.kvportal.common.scheduling.PeriodicJob;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Sends the queued usage charges to the provider, each in a transaction of its own that locks its row (so one
 * instance at a time sends it), calls the provider under the charge's idempotency key, records the answer and
 * publishes {@link UsageChargeBilled}. Right after the commit that queued a charge, and every
 * {@code kvportal.billing.usage-charges.retry-interval} for those whose send failed or never ran: a call sent again
 * makes nothing new at the provider, so a crash anywhere between the queueing commit and the answer's record loses
 * nothing and bills nothing twice.
 */
@Component
class UsageChargeSender implements PeriodicJob {

    private static final Logger log = LoggerFactory.getLogger(UsageChargeSender.class);

    private final UsageChargeOutbox outbox;
    private final ProviderInvoiceItems items;
    private final ApplicationEventPublisher events;
    private final UsageChargeProperties properties;
    private final TransactionTemplate ownTransaction;

    UsageChargeSender(
            UsageChargeOutbox outbox,
            ProviderInvoiceItems items,
            ApplicationEventPublisher events,
            UsageChargeProperties properties,
            PlatformTransactionManager transactions) {
        this.outbox = outbox;
        this.items = items;
        this.events = events;
        this.properties = properties;
        this.ownTransaction = new TransactionTemplate(transactions);
        this.ownTransaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    }

    /** Sends the charge now; a failure is logged and left to the retry. */
    void trySend(UUID id) {
        try {
            send(id);
        } catch (RuntimeException e) {
            log.warn("Usage charge {} not sent yet; it is retried: {}", id, e.toString());
        }
    }

    /**
     * Sends the charge unless it was sent; waits while another thread or instance sends it.
     *
     * @throws com.kvportal.billing.stripe.StripeGateway.PaymentProviderUnavailable when the provider fails; the charge
     *     stays queued
     */
    void send(UUID id) {
        ownTransaction.executeWithoutResult(status -> outbox.lockUnsent(id).ifPresent(this::bill));
    }

    /** {@link #send(UUID)} by the charge's idempotency key; nothing when no charge of that key is queued. */
    void send(String idempotencyKey) {
        ownTransaction.executeWithoutResult(
                status -> outbox.lockUnsent(idempotencyKey).ifPresent(this::bill));
    }

    private void bill(Queued queued) {
        UsageCharge charge = queued.charge();
        ProviderInvoiceId invoice = queued.providerInvoiceId();
        InvoiceItem item = null;
        if (invoice == null) {
            invoice = items.billFinalInvoice(queued.providerCustomerId(), request(queued, null));
        } else if (charge.quantity() > 0) {
            item = items.addInvoiceItem(request(queued, invoice));
        }
        outbox.markSent(
                queued.id(),
                invoice,
                item == null ? null : item.providerInvoiceItemId(),
                item != null && item.pending());
        log.info(
                "Usage charge of organization {} for {} - {}: {} units, {} cents on {}",
                queued.organizationId(),
                queued.periodStart(),
                queued.periodEnd(),
                charge.quantity(),
                charge.amountCents(),
                invoice);
        events.publishEvent(new UsageChargeBilled(
                queued.organizationId(),
                invoice,
                item == null ? null : item.providerInvoiceItemId(),
                item != null && item.pending(),
                queued.periodStart(),
                queued.periodEnd(),
                charge));
    }

    private static InvoiceItemRequest request(Queued queued, @Nullable ProviderInvoiceId invoice) {
        UsageCharge charge = queued.charge();
        return new InvoiceItemRequest(
                queued.providerCustomerId(),
                invoice,
                charge.quantity(),
                charge.unitAmountCents(),
                Plan.CURRENCY,
                charge.description(),
                queued.periodStart(),
                queued.periodEnd(),
                UsageCharge.ItemKey.metadata(queued.organizationId(), queued.periodStart()),
                queued.idempotencyKey());
    }

    /** The charges whose send after commit failed or never ran; each that fails again waits for the next round. */
    void retryUnsent() {
        for (UUID id : outbox.unsentOlderThan(properties.retryInterval())) {
            trySend(id);
        }
    }

    @Override
    public Schedule schedule() {
        return Schedule.every("usage-charges", properties.retryInterval(), this::retryUnsent);
    }
}
