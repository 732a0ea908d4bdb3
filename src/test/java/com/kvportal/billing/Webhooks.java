package com.kvportal.billing;

import com.kvportal.support.Api;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/** Signs webhook bodies as Stripe does and posts them to the service's webhook. */
final class Webhooks {

    static final String SECRET = "whsec_test_5f2d6c1e0b9a48d7a3c2e1f0b9a8d7c6";
    static final String PATH = "/api/v1/billing/webhook";

    private final String baseUrl;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    Webhooks(String baseUrl) {
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
    Api.Response deliver(String body) {
        return post(body, header(SECRET, Instant.now().getEpochSecond(), body));
    }

    /** Posts the body as {@code application/json} with this Stripe-Signature header (none when null). */
    Api.Response post(String body, @Nullable String signatureHeader) {
        return post(body.getBytes(StandardCharsets.UTF_8), signatureHeader);
    }

    Api.Response post(byte[] body, @Nullable String signatureHeader) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + PATH))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json; charset=utf-8")
                .header("User-Agent", "Stripe/1.0 (+https://stripe.com/docs/webhooks)")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (signatureHeader != null) {
            request.header("Stripe-Signature", signatureHeader);
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Api.Response(response.statusCode(), response);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
