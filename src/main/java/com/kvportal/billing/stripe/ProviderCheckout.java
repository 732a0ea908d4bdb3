package com.kvportal.billing.stripe;

import com.kvportal.billing.ids.ProviderCustomerId;
import com.kvportal.billing.ids.ProviderSubscriptionId;
import com.kvportal.common.Parsed;
import com.stripe.model.checkout.Session;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A hosted checkout session as the provider states it.
 *
 * @param organizationId the organization the session was made for ({@code client_reference_id}, else the
 *     metadata), when it names one
 * @param portalCustomerId our customer who started it (metadata), when present
 */
public record ProviderCheckout(
        String id,
        @Nullable String status,
        @Nullable UUID organizationId,
        @Nullable UUID portalCustomerId,
        @Nullable ProviderCustomerId customer,
        @Nullable ProviderSubscriptionId subscription) {

    public static final String ORGANIZATION_KEY = "organization_id";
    public static final String CUSTOMER_KEY = "customer_id";

    /** Paid for and done: the provider has made the subscription. */
    public boolean isComplete() {
        return "complete".equals(status) && organizationId != null && customer != null && subscription != null;
    }

    static ProviderCheckout of(Session session) {
        String reference = session.getClientReferenceId();
        if (reference == null && session.getMetadata() != null) {
            reference = session.getMetadata().get(ORGANIZATION_KEY);
        }
        String customer =
                session.getMetadata() == null ? null : session.getMetadata().get(CUSTOMER_KEY);
        return new ProviderCheckout(
                session.getId(),
                session.getStatus(),
                Parsed.orEmpty(reference, UUID::fromString).orElse(null),
                Parsed.orEmpty(customer, UUID::fromString).orElse(null),
                Parsed.orEmpty(session.getCustomer(), ProviderCustomerId::new).orElse(null),
                Parsed.orEmpty(session.getSubscription(), ProviderSubscriptionId::new)
                        .orElse(null));
    }
}
