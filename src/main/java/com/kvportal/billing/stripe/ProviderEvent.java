package com.kvportal.billing.stripe;

import com.kvportal.billing.BillingProblem;
import com.kvportal.billing.InvoiceStatus;
import com.kvportal.billing.ids.ProviderId;
import com.kvportal.common.web.ProblemException;
import com.stripe.exception.EventDataObjectDeserializationException;
import com.stripe.model.Event;
import com.stripe.model.Invoice;
import com.stripe.model.StripeObject;
import com.stripe.model.Subscription;
import com.stripe.model.checkout.Session;
import com.stripe.net.Webhook;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A verified webhook event, read with stripe-java. Its object is deserialized by its own {@code object} type
 * whatever API version the event was rendered with, so that a payload of a newer or older version still reads.
 *
 * @param object the event's {@code data.object}, or null when stripe-java cannot read it
 */
public record ProviderEvent(String id, String type, Instant created, @Nullable StripeObject object) {

    private static final Logger log = LoggerFactory.getLogger(ProviderEvent.class);

    /** Parses a body whose signature has been verified; a body that is no event is a client mistake (400). */
    public static ProviderEvent parse(byte[] body) {
        Event event;
        try {
            // the signature was checked over the raw bytes already, by ProviderEventSignature
            event = Webhook.constructEventWithoutVerification(new String(body, StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            throw new MalformedEvent();
        }
        if (event == null
                || !ProviderId.wellFormed(event.getId(), "evt_")
                || event.getType() == null
                || event.getCreated() == null
                || event.getData() == null) {
            throw new MalformedEvent();
        }
        StripeObject object;
        try {
            object = event.getDataObjectDeserializer().deserializeUnsafe();
        } catch (EventDataObjectDeserializationException | RuntimeException e) {
            log.warn(
                    "Event {} ({}) carries an object that stripe-java cannot read: {}",
                    event.getId(),
                    event.getType(),
                    e.toString());
            object = null;
        }
        Instant created;
        try {
            created = Epoch.instant(event.getCreated());
        } catch (Epoch.OutOfRange e) {
            throw new MalformedEvent();
        }
        return new ProviderEvent(event.getId(), event.getType(), created, object);
    }

    /**
     * The event's subscription; empty (logged) when the object is not a usable one.
     *
     * @throws MalformedEvent when it carries a timestamp that cannot be one
     */
    public Optional<ProviderSubscription> subscription() {
        try {
            return as(Subscription.class).flatMap(ProviderSubscription::of);
        } catch (Epoch.OutOfRange e) {
            throw new MalformedEvent();
        }
    }

    /**
     * The event's invoice, with the status that the event implies ({@code invoice.paid}: paid), or with its own
     * status when {@code impliedStatus} is null.
     *
     * @throws MalformedEvent when it carries a timestamp that cannot be one
     */
    public Optional<ProviderInvoice> invoice(@Nullable InvoiceStatus impliedStatus) {
        try {
            return as(Invoice.class).flatMap(invoice -> ProviderInvoice.of(invoice, impliedStatus, created));
        } catch (Epoch.OutOfRange e) {
            throw new MalformedEvent();
        }
    }

    public Optional<ProviderCheckout> checkout() {
        return as(Session.class).map(ProviderCheckout::of);
    }

    private <T> Optional<T> as(Class<T> type) {
        if (type.isInstance(object)) {
            return Optional.of(type.cast(object));
        }
        log.warn("Event {} ({}) carries no {}", id, this.type, type.getSimpleName());
        return Optional.empty();
    }

    /** A signed body that is not an event: 400, nothing changes. */
    public static final class MalformedEvent extends ProblemException {
        MalformedEvent() {
            super(BillingProblem.MALFORMED_EVENT);
        }
    }
}
