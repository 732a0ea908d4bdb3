package com.kvportal.billing.stripe;

import com.kvportal.common.PaymentProvider;
import com.kvportal.common.web.CommonProblem;
import com.kvportal.common.web.ProblemException;
import com.stripe.exception.SignatureVerificationException;
import com.stripe.net.Webhook;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.regex.Pattern;
import lombok.AccessLevel;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * Checks the {@code Stripe-Signature} header of a webhook request: {@code t=<unix seconds>,v1=<hex>[,v1=<hex>...]},
 * where each {@code v1} may be the HMAC-SHA256 of {@code <t>.<raw body>} under the webhook secret (more than one
 * during a secret rotation). A timestamp more than five minutes away from now is refused, which bounds replays.
 * The header's form is checked strictly here; the signatures by stripe-java's {@code Webhook.Signature}.
 */
@Component
@RequiredArgsConstructor(access = AccessLevel.PACKAGE)
public class ProviderEventSignature {

    public static final String HEADER = "Stripe-Signature";
    static final Duration TOLERANCE = Duration.ofMinutes(5);

    private static final Pattern TIMESTAMP = Pattern.compile("[0-9]{1,12}");
    private static final Pattern HEX_SHA256 = Pattern.compile("[0-9a-fA-F]{64}");

    private final PaymentProvider provider;
    private final Clock clock;

    /** Throws {@link SignatureInvalid} unless the header proves that the provider sent exactly this body. */
    public void verify(byte[] body, @Nullable String header) {
        if (header == null || header.isBlank()) {
            throw new SignatureInvalid("The Stripe-Signature header is missing.");
        }
        String timestamp = null;
        boolean signed = false;
        for (String part : header.split(",", -1)) {
            int eq = part.indexOf('=');
            if (eq <= 0) {
                throw new SignatureInvalid("The Stripe-Signature header is malformed.");
            }
            String key = part.substring(0, eq).strip();
            String value = part.substring(eq + 1).strip();
            if (key.equals("t")) {
                if (timestamp != null || !TIMESTAMP.matcher(value).matches()) {
                    throw new SignatureInvalid("The Stripe-Signature header is malformed.");
                }
                timestamp = value;
            } else if (key.equals("v1")) {
                if (!HEX_SHA256.matcher(value).matches()) {
                    throw new SignatureInvalid("The Stripe-Signature header is malformed.");
                }
                signed = true;
            }
            // other schemes (v0, ...) are not ours to check
        }
        if (timestamp == null || !signed) {
            throw new SignatureInvalid("The Stripe-Signature header needs t= and at least one v1=.");
        }
        // stripe-java refuses only stale timestamps; a signature from the future is refused here as well
        long age = clock.instant().getEpochSecond() - Long.parseLong(timestamp);
        if (Math.abs(age) > TOLERANCE.toSeconds()) {
            throw new SignatureInvalid("The signature's timestamp is outside the tolerance of five minutes.");
        }
        try {
            // the check of Webhook.constructEvent (any v1 may match, compared in constant time, the tolerance),
            // without its parsing: the event is read after, with billing's own rules
            Webhook.Signature.verifyHeader(
                    new String(body, StandardCharsets.UTF_8),
                    header,
                    provider.webhookSecret(),
                    TOLERANCE.toSeconds(),
                    clock);
        } catch (SignatureVerificationException e) {
            throw new SignatureInvalid("No signature matches the body.");
        }
    }

    /** 400: the request cannot be shown to come from the provider; nothing changes. */
    public static final class SignatureInvalid extends ProblemException {
        SignatureInvalid(String detail) {
            super(CommonProblem.SIGNATURE_INVALID, detail);
        }
    }
}
