package com.kvportal.support;

import com.kvportal.sandbox.SandboxStandIn;
import com.stripe.param.checkout.SessionCreateParams;

/**
 * A checkout session for one seat of the pro price as the service asks the provider for one: the organization in
 * {@code client_reference_id} and in the session's and the subscription's metadata, back to the service's success
 * and cancel URLs.
 */
public final class ProCheckout {

    private ProCheckout() {}

    public static SessionCreateParams.Builder params(String baseUrl, String customer, String organizationId) {
        return SessionCreateParams.builder()
                .setMode(SessionCreateParams.Mode.SUBSCRIPTION)
                .setCustomer(customer)
                .setClientReferenceId(organizationId)
                .putMetadata("organization_id", organizationId)
                .addLineItem(SessionCreateParams.LineItem.builder()
                        .setPrice(SandboxStandIn.PRICE_PRO)
                        .setQuantity(1L)
                        .build())
                .setSuccessUrl(baseUrl + "/api/v1/billing/checkout/success?session_id={CHECKOUT_SESSION_ID}")
                .setCancelUrl(baseUrl + "/api/v1/billing/checkout/cancel")
                .setSubscriptionData(SessionCreateParams.SubscriptionData.builder()
                        .putMetadata("organization_id", organizationId)
                        .build());
    }
}
