package com.kvportal.billing;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/** Signs webhook bodies as Stripe does and posts them to the service's webhook. */
public final class Webhooks {

    static final String SECRET = IntegrationTest.WEBHOOK_SECRET;
    static final String PATH = "/api/v1/billing/webhook";

    private final String baseUrl;

    public Webhooks(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    static String v1(String secret, long timestamp, String body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal((timestamp + "." + body).getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static String header(String secret, long timestamp, String body) {
        return "t=" + timestamp + ",v1=" + v1(secret, timestamp, body);
    }

    /** Delivers the body signed now with the right secret. */
    public Api.Response deliver(String body) {
        return post(body, header(SECRET, Instant.now().getEpochSecond(), body));
    }

    /** Posts the body as {@code application/json} with this Stripe-Signature header (none when null). */
    Api.Response post(String body, @Nullable String signatureHeader) {
        return post(body.getBytes(StandardCharsets.UTF_8), signatureHeader);
    }

    Api.Response post(byte[] body, @Nullable String signatureHeader) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json; charset=utf-8");
        headers.put("User-Agent", "Stripe/1.0 (+https://stripe.com/docs/webhooks)");
        if (signatureHeader != null) {
            headers.put("Stripe-Signature", signatureHeader);
        }
        // a client without cookies, as the provider is
        return new Api(baseUrl).sendRaw("POST", PATH, HttpRequest.BodyPublishers.ofByteArray(body), headers);
    }
}
