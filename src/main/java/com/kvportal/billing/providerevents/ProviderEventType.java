package com.kvportal.billing.providerevents;

import com.kvportal.billing.stripe.ProviderSubscription;
import com.kvportal.common.WireName;
import java.util.Optional;

/**
 * The provider's event types billing handles, by their wire names; any other type is answered 200 and
 * ignored.
 */
public enum ProviderEventType implements WireName {
    CHECKOUT_SESSION_COMPLETED("checkout.session.completed"),
    CUSTOMER_SUBSCRIPTION_CREATED("customer.subscription.created"),
    CUSTOMER_SUBSCRIPTION_UPDATED("customer.subscription.updated"),
    CUSTOMER_SUBSCRIPTION_DELETED("customer.subscription.deleted"),
    INVOICE_CREATED("invoice.created"),
    INVOICE_PAID("invoice.paid"),
    INVOICE_PAYMENT_FAILED("invoice.payment_failed");

    private final String wire;

    ProviderEventType(String wire) {
        this.wire = wire;
    }

    /** The type as the provider names it ({@code invoice.paid}). */
    @Override
    public String wire() {
        return wire;
    }

    /** The handled type of this wire name; empty for any other type. */
    public static Optional<ProviderEventType> of(String wire) {
        return WireName.of(ProviderEventType.class, wire);
    }

    /** Whether the event states a subscription ({@code customer.subscription.*}). */
    public boolean isAboutASubscription() {
        return this == CUSTOMER_SUBSCRIPTION_CREATED
                || this == CUSTOMER_SUBSCRIPTION_UPDATED
                || this == CUSTOMER_SUBSCRIPTION_DELETED;
    }

    /**
     * The subscription's state this event states: a deletion means canceled, whatever status its object still
     * shows; any other event states the object as it is.
     */
    public ProviderSubscription stated(ProviderSubscription subscription) {
        return this == CUSTOMER_SUBSCRIPTION_DELETED ? subscription.deleted() : subscription;
    }
}
