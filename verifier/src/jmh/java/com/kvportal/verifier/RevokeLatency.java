package com.kvportal.verifier;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The time a revoke takes to answer while holders acknowledge its event: for each trial a key is created, verified
 * by every holder (then answered from each one's cache), revoked, and checked refused by every holder right after
 * the answer. Run by bench/verifier.sh once without holders and once with three ({@link KeyVerifier}s in this
 * process, each with its own lease, event stream and HTTP client).
 *
 * <p>Usage: RevokeLatency BASE USAGE_TOKEN ADMIN_KEY TRIALS HOLDERS (prints "p50_ms p99_ms max_ms"; the first
 * WARMUP trials, default 30, are not timed)
 */
public final class RevokeLatency {

    public static void main(String[] args) throws Exception {
        String base = args[0];
        String token = args[1];
        String admin = args[2];
        int trials = Integer.parseInt(args[3]);
        int holderCount = Integer.parseInt(args[4]);
        int warmup = Integer.parseInt(System.getenv().getOrDefault("WARMUP", "30"));
        List<KeyVerifier> holders = new ArrayList<>();
        for (int i = 0; i < holderCount; i++) {
            holders.add(KeyVerifier.connect(URI.create(base), token));
        }
        // a new lease keeps answers only after its first two ttls
        for (KeyVerifier holder : holders) {
            while (holder.cachedAnswers() == 0) {
                check(holder.verify(admin).valid(), "the admin key is valid");
                Thread.sleep(200);
            }
        }
        HttpClient http = HttpClient.newHttpClient();
        List<Double> took = new ArrayList<>();
        for (int i = 0; i < warmup + trials; i++) {
            HttpResponse<String> created = http.send(
                    HttpRequest.newBuilder(URI.create(base + "/api/v1/api-keys"))
                            .header("Authorization", "Bearer " + admin)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"revoke " + i + "\"}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            check(created.statusCode() == 201, created.body());
            Map<String, Object> body = Json.object(created.body());
            String raw = (String) body.get("api_key");
            @SuppressWarnings("unchecked")
            String id = (String) ((Map<String, Object>) body.get("key")).get("id");
            for (KeyVerifier holder : holders) {
                int kept = holder.cachedAnswers();
                check(holder.verify(raw).valid() && holder.verify(raw).valid(), "a new key is valid");
                check(holder.cachedAnswers() == kept + 1, "the holder keeps the key's answer");
            }
            long started = System.nanoTime();
            HttpResponse<String> revoked = http.send(
                    HttpRequest.newBuilder(URI.create(base + "/api/v1/api-keys/" + id))
                            .header("Authorization", "Bearer " + admin)
                            .DELETE()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            long ended = System.nanoTime();
            check(revoked.statusCode() == 204, revoked.body());
            for (KeyVerifier holder : holders) {
                Verification after = holder.verify(raw);
                check("api_key_revoked".equals(after.code()), "refused after the revoke's answer: " + after);
            }
            if (i >= warmup) {
                took.add((ended - started) / 1e6);
            }
        }
        holders.forEach(KeyVerifier::close);
        took.sort(Double::compare);
        System.out.printf(
                "%.1f %.1f %.1f%n",
                took.get(took.size() / 2),
                took.get(Math.min(took.size() - 1, (int) (took.size() * 0.99))),
                took.get(took.size() - 1));
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new IllegalStateException(what);
        }
    }
}
