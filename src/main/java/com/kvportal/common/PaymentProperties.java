package com.kvportal.common;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The payment provider's settings ({@code application.yml} maps {@code STRIPE_SECRET_KEY}, {@code STRIPE_PRICE_PRO},
 * {@code PAYMENT_WEBHOOK_SECRET} and {@code STRIPE_PRICE_TEAM} here). All empty is a bare start: the built-in sandbox.
 *
 * @param stripeSecretKey Stripe's secret key; empty selects the sandbox
 * @param stripePricePro the id ({@code price_...}) of the pro tier's recurring price; required with Stripe
 * @param webhookSecret the signing secret ({@code whsec_...}) of the webhook; required with Stripe, random for the
 *     sandbox when empty
 * @param stripePriceTeam the id ({@code price_...}) of the team tier's recurring price; optional with Stripe (unset:
 *     the team tier is not for sale there)
 */
@ConfigurationProperties("kvportal.payment")
public record PaymentProperties(
        @DefaultValue("") String stripeSecretKey,
        @DefaultValue("") String stripePricePro,
        @DefaultValue("") String webhookSecret,
        @DefaultValue("") String stripePriceTeam) {

    /** The property that {@link PaymentProvider#selectsSandbox} reads, for conditions evaluated before binding. */
    public static final String STRIPE_SECRET_KEY = "kvportal.payment.stripe-secret-key";

    public PaymentProperties {
        if (!PaymentProvider.selectsSandbox(stripeSecretKey)) {
            if (webhookSecret.isBlank()) {
                throw new IllegalStateException("STRIPE_SECRET_KEY is set, so PAYMENT_WEBHOOK_SECRET is required: "
                        + "set it to the signing secret (whsec_...) of the webhook endpoint at Stripe.");
            }
            if (stripePricePro.isBlank()) {
                throw new IllegalStateException("STRIPE_SECRET_KEY is set, so STRIPE_PRICE_PRO is required: "
                        + "set it to the id (price_...) of the recurring price of the pro tier.");
            }
        }
    }
}
