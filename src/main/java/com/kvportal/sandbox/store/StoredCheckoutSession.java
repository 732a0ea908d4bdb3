package com.kvportal.sandbox.store;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A hosted checkout session in subscription mode.
 *
 * @param allowPromotionCodes the hosted page takes a promotion code the customer types
 * @param billingAddressCollection {@code auto} or {@code required}: the page asks for the billing address's country
 * @param automaticTax the subscription's invoices are taxed by that country
 */
public record StoredCheckoutSession(
        String id,
        String status,
        String paymentStatus,
        String mode,
        @Nullable String customer,
        @Nullable String customerEmail,
        @Nullable String clientReferenceId,
        Map<String, String> metadata,
        String price,
        long quantity,
        String successUrl,
        @Nullable String cancelUrl,
        Map<String, String> subscriptionMetadata,
        @Nullable String subscription,
        long created,
        long expiresAt,
        @Nullable Long completedAt,
        boolean allowPromotionCodes,
        String billingAddressCollection,
        boolean automaticTax,
        @Nullable Long trialPeriodDays) {

    /** As at Stripe, an open session past its expiry reads as expired (and can no longer be paid). */
    public StoredCheckoutSession asOf(long now) {
        if (!status.equals("open") || expiresAt > now) {
            return this;
        }
        return with("expired", paymentStatus, customer, subscription, completedAt);
    }

    /** True when paying needs the country of the billing address. */
    public boolean needsCountry() {
        return automaticTax || billingAddressCollection.equals("required");
    }

    public boolean isComplete() {
        return status.equals("complete");
    }

    /** Where the browser goes after payment: the success URL with Stripe's template variable filled in. */
    public String successRedirect() {
        return successUrl.replace("{CHECKOUT_SESSION_ID}", id);
    }

    public StoredCheckoutSession completed(String customer, String subscription, long now) {
        return with("complete", "paid", customer, subscription, now);
    }

    /** Expired on request, as Stripe's {@code POST /v1/checkout/sessions/{id}/expire} leaves it. */
    public StoredCheckoutSession expired() {
        return with("expired", paymentStatus, customer, subscription, completedAt);
    }

    /** A copy with new values of the fields that change over a session's life (those that updates write). */
    private StoredCheckoutSession with(
            String status,
            String paymentStatus,
            @Nullable String customer,
            @Nullable String subscription,
            @Nullable Long completedAt) {
        return new StoredCheckoutSession(
                id,
                status,
                paymentStatus,
                mode,
                customer,
                customerEmail,
                clientReferenceId,
                metadata,
                price,
                quantity,
                successUrl,
                cancelUrl,
                subscriptionMetadata,
                subscription,
                created,
                expiresAt,
                completedAt,
                allowPromotionCodes,
                billingAddressCollection,
                automaticTax,
                trialPeriodDays);
    }
}
