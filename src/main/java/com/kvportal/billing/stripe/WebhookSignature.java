package com.kvportal.billing.stripe;

import com.kvportal.common.PaymentProvider;
import com.kvportal.common.web.ProblemException;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Checks the {@code Stripe-Signature} header of a webhook request: {@code t=<unix seconds>,v1=<hex>[,v1=<hex>...]},
 * where each {@code v1} may be the HMAC-SHA256 of {@code <t>.<raw body>} under the webhook secret (more than one
 * during a secret rotation). A timestamp more than five minutes away from now is refused, which bounds replays.
 */
@Component
public class WebhookSignature {

    public static final String HEADER = "Stripe-Signature";
    static final Duration TOLERANCE = Duration.ofMinutes(5);

    private static final Pattern TIMESTAMP = Pattern.compile("[0-9]{1,12}");
    private static final Pattern HEX_SHA256 = Pattern.compile("[0-9a-fA-F]{64}");

    private final PaymentProvider provider;
    private final Clock clock;

    WebhookSignature(PaymentProvider provider, Clock clock) {
        this.provider = provider;
        this.clock = clock;
    }

    /** Throws {@link SignatureInvalid} unless the header proves that the provider sent exactly this body. */
    public void verify(byte[] body, @Nullable String header) {
        if (header == null || header.isBlank()) {
            throw new SignatureInvalid("The Stripe-Signature header is missing.");
        }
        String timestamp = null;
        List<byte[]> signatures = new ArrayList<>();
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
                signatures.add(HexFormat.of().parseHex(value));
            }
            // other schemes (v0, ...) are not ours to check
        }
        if (timestamp == null || signatures.isEmpty()) {
            throw new SignatureInvalid("The Stripe-Signature header needs t= and at least one v1=.");
        }
        long age = clock.instant().getEpochSecond() - Long.parseLong(timestamp);
        if (Math.abs(age) > TOLERANCE.toSeconds()) {
            throw new SignatureInvalid("The signature's timestamp is outside the tolerance of five minutes.");
        }
        byte[] expected = sign(timestamp, body);
        boolean matched = false;
        for (byte[] candidate : signatures) {
            // no early exit: every candidate costs the same constant-time comparison
            matched |= MessageDigest.isEqual(expected, candidate);
        }
        if (!matched) {
            throw new SignatureInvalid("No signature matches the body.");
        }
    }

    private byte[] sign(String timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(provider.webhookSecret().getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update(timestamp.getBytes(StandardCharsets.US_ASCII));
            mac.update((byte) '.');
            return mac.doFinal(body);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is unavailable", e);
        }
    }

    /** 400: the request cannot be shown to come from the provider; nothing changes. */
    public static final class SignatureInvalid extends ProblemException {
        SignatureInvalid(String detail) {
            super(HttpStatus.BAD_REQUEST, "signature_invalid", detail);
        }
    }
}
