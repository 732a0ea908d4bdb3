package com.kvportal.support;

import com.stripe.StripeClient;
import com.stripe.exception.StripeException;
import com.stripe.model.Event;
import com.stripe.model.Invoice;
import com.stripe.param.EventListParams;

/** The payment provider's event log, read through stripe-java as the service's own client reads it. */
public final class StripeEventLog {

    private StripeEventLog() {}

    /** The {@code invoice.created} event of the invoice, among the latest hundred. */
    public static Event invoiceCreated(StripeClient stripe, String invoiceId) throws StripeException {
        return stripe
                .v1()
                .events()
                .list(EventListParams.builder()
                        .setType("invoice.created")
                        .setLimit(100L)
                        .build())
                .getData()
                .stream()
                .filter(event -> invoice(event).getId().equals(invoiceId))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no invoice.created for " + invoiceId));
    }

    /** The invoice as the event carried it. */
    public static Invoice invoice(Event event) {
        return (Invoice) event.getDataObjectDeserializer().getObject().orElseThrow();
    }
}
