package com.kvportal.common;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * Which payment provider the service talks to, read once at start-up: Stripe when {@code STRIPE_SECRET_KEY}
 * is set (then {@code STRIPE_PRICE_PRO} and {@code PAYMENT_WEBHOOK_SECRET} are required), otherwise the
 * built-in sandbox ({@link StandIn}), with a random webhook secret shared between the sandbox and the webhook.
 */
@Component
public class PaymentProvider {

    /**
     * The built-in stand-in for Stripe, present exactly when {@link #selectsSandbox} holds: its API path, its secret
     * key and the default price of the pro tier.
     */
    public interface StandIn {

        /** The path of this service under which the stand-in answers Stripe's API, e.g. {@code /sandbox/stripe}. */
        String apiPath();

        String secretKey();

        /** The pro tier's price when {@code STRIPE_PRICE_PRO} is not set. */
        String pricePro();

        /** The team tier's price when {@code STRIPE_PRICE_TEAM} is not set. */
        String priceTeam();
    }

    private final @Nullable String stripeSecretKey;
    private final String secretKey;
    private final String pricePro;
    private final @Nullable String priceTeam;
    private final String webhookSecret;
    private final @Nullable String standInPath;
    private final AppBaseUrl baseUrl;

    PaymentProvider(PaymentProperties properties, AppBaseUrl baseUrl, ObjectProvider<StandIn> standIns) {
        this.baseUrl = baseUrl;
        if (selectsSandbox(properties.stripeSecretKey())) {
            StandIn standIn = standIns.getIfAvailable();
            if (standIn == null) {
                throw new IllegalStateException("STRIPE_SECRET_KEY is not set, and there is no sandbox to stand in.");
            }
            this.stripeSecretKey = null;
            this.secretKey = standIn.secretKey();
            this.standInPath = standIn.apiPath();
            this.pricePro = properties.stripePricePro().isBlank() ? standIn.pricePro() : properties.stripePricePro();
            this.priceTeam =
                    properties.stripePriceTeam().isBlank() ? standIn.priceTeam() : properties.stripePriceTeam();
            this.webhookSecret = properties.webhookSecret().isBlank() ? randomSecret() : properties.webhookSecret();
        } else {
            this.stripeSecretKey = properties.stripeSecretKey();
            this.secretKey = properties.stripeSecretKey();
            this.standInPath = null;
            this.pricePro = properties.stripePricePro();
            this.priceTeam = properties.stripePriceTeam().isBlank() ? null : properties.stripePriceTeam();
            this.webhookSecret = properties.webhookSecret();
        }
    }

    /** The one rule that picks the provider: the sandbox unless a Stripe secret key is configured. */
    public static boolean selectsSandbox(@Nullable String stripeSecretKey) {
        return stripeSecretKey == null || stripeSecretKey.isBlank();
    }

    /** True when the built-in Stripe stand-in is the provider. */
    public boolean isSandbox() {
        return stripeSecretKey == null;
    }

    public String secretKey() {
        return secretKey;
    }

    /** The API base for stripe-java: Stripe's own, or the sandbox inside this service. */
    public String apiBase() {
        return standInPath != null ? baseUrl.resolve(standInPath) : "https://api.stripe.com";
    }

    public String pricePro() {
        return pricePro;
    }

    /** The team tier's price; empty with Stripe when {@code STRIPE_PRICE_TEAM} is not set (team is not for sale). */
    public Optional<String> priceTeam() {
        return Optional.ofNullable(priceTeam);
    }

    /** The secret that signs webhook events ({@code PAYMENT_WEBHOOK_SECRET}). */
    public String webhookSecret() {
        return webhookSecret;
    }

    private static String randomSecret() {
        byte[] bytes = new byte[24];
        new SecureRandom().nextBytes(bytes);
        return "whsec_" + HexFormat.of().formatHex(bytes);
    }
}
