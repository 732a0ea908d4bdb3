package com.kvportal.common;

import java.security.SecureRandom;
import java.util.HexFormat;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Which payment provider the service talks to, read once at start-up: Stripe when {@code STRIPE_SECRET_KEY}
 * is set (then {@code STRIPE_PRICE_PRO} and {@code PAYMENT_WEBHOOK_SECRET} are required), otherwise the
 * built-in sandbox, with a random webhook secret shared between the sandbox and the webhook.
 */
@Component
public class PaymentProvider {

    /** The price of the pro tier in the sandbox. */
    public static final String SANDBOX_PRICE_PRO = "price_sandbox_pro";

    public static final String SANDBOX_SECRET_KEY = "sk_test_sandbox";

    private final @Nullable String stripeSecretKey;
    private final String pricePro;
    private final String webhookSecret;
    private final AppBaseUrl baseUrl;

    PaymentProvider(
            @Value("${STRIPE_SECRET_KEY:}") String stripeSecretKey,
            @Value("${STRIPE_PRICE_PRO:}") String pricePro,
            @Value("${PAYMENT_WEBHOOK_SECRET:}") String webhookSecret,
            AppBaseUrl baseUrl) {
        this.baseUrl = baseUrl;
        if (selectsSandbox(stripeSecretKey)) {
            this.stripeSecretKey = null;
            this.pricePro = pricePro.isBlank() ? SANDBOX_PRICE_PRO : pricePro;
            this.webhookSecret = webhookSecret.isBlank() ? randomSecret() : webhookSecret;
        } else {
            if (webhookSecret.isBlank()) {
                throw new IllegalStateException("STRIPE_SECRET_KEY is set, so PAYMENT_WEBHOOK_SECRET is required: "
                        + "set it to the signing secret (whsec_...) of the webhook endpoint at Stripe.");
            }
            if (pricePro.isBlank()) {
                throw new IllegalStateException("STRIPE_SECRET_KEY is set, so STRIPE_PRICE_PRO is required: "
                        + "set it to the id (price_...) of the recurring price of the pro tier.");
            }
            this.stripeSecretKey = stripeSecretKey;
            this.pricePro = pricePro;
            this.webhookSecret = webhookSecret;
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
        return stripeSecretKey == null ? SANDBOX_SECRET_KEY : stripeSecretKey;
    }

    /** The API base for stripe-java: Stripe's own, or the sandbox inside this service. */
    public String apiBase() {
        return isSandbox() ? baseUrl.resolve("/sandbox/stripe") : "https://api.stripe.com";
    }

    public String pricePro() {
        return pricePro;
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
