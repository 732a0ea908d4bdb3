package com.kvportal.verifier;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodySubscribers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/** The service's HTTP calls the library makes: lease, renew, events, ack (with the usage token), and verify. */
final class ServiceCalls {

    /** A lease as the service handed it. */
    record Lease(String id, long ttlMillis, URI eventsUri) {}

    /** The lease is unknown, expired or stopped (404 {@code lease_expired}): take a new one. */
    static final class LeaseExpired extends Exception {
        LeaseExpired() {
            super("lease_expired", null, false, false);
        }
    }

    /** An answer other than the one expected: its status and problem code (null when the body had none). */
    static final class Refused extends IOException {
        final int status;
        final String code;

        Refused(String call, int status, String code) {
            super(call + " answered " + status + (code == null ? "" : " " + code));
            this.status = status;
            this.code = code;
        }
    }

    /** Verify's answer: its status and its body as JSON (null when the body was not JSON). */
    record Answer(int status, Map<String, Object> body) {
        String code() {
            return body != null && body.get("code") instanceof String code ? code : null;
        }
    }

    private static final Duration VERIFY_TIMEOUT = Duration.ofSeconds(5);

    private final URI base;
    private final String bearer;
    private final HttpClient http;

    ServiceCalls(URI base, String usageToken, HttpClient http) {
        this.base = base.toString().endsWith("/") ? base : URI.create(base + "/");
        this.bearer = "Bearer " + usageToken;
        this.http = http;
    }

    Lease takeLease(Duration timeout) throws IOException, InterruptedException {
        HttpResponse<String> response =
                send(leaseCall("api/v1/verify-leases", timeout).POST(HttpRequest.BodyPublishers.noBody()));
        if (response.statusCode() != 201) {
            throw refused("taking a lease", response);
        }
        Map<String, Object> body = Json.object(response.body());
        return new Lease((String) body.get("lease_id"), ((Number) body.get("ttl_ms")).longValue(), base.resolve((String)
                body.get("events_url")));
    }

    /** Renews the lease; answers its ttl. */
    long renew(Lease lease, Duration timeout) throws IOException, InterruptedException, LeaseExpired {
        HttpResponse<String> response = send(leaseCall("api/v1/verify-leases/" + lease.id() + "/renew", timeout)
                .POST(HttpRequest.BodyPublishers.noBody()));
        expired(response);
        if (response.statusCode() != 200) {
            throw refused("renewing the lease", response);
        }
        return ((Number) Json.object(response.body()).get("ttl_ms")).longValue();
    }

    void ack(Lease lease, long seq, Duration timeout) throws IOException, InterruptedException, LeaseExpired {
        HttpResponse<String> response = send(leaseCall("api/v1/verify-leases/" + lease.id() + "/ack", timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"seq\":" + seq + "}")));
        expired(response);
        if (response.statusCode() != 204) {
            throw refused("acknowledging events", response);
        }
    }

    /**
     * Opens the lease's event stream: {@code lines} receives its lines as they arrive (a 200), and the answer
     * completes when the stream ends; an answer other than 200 completes with its body and {@code lines} sees none.
     */
    CompletableFuture<HttpResponse<String>> events(Lease lease, Flow.Subscriber<String> lines, Duration timeout) {
        HttpRequest request = HttpRequest.newBuilder(lease.eventsUri())
                .timeout(timeout) // until the answer's headers arrive; the stream itself may last
                .header("Authorization", bearer)
                .header("Accept", "text/event-stream")
                .GET()
                .build();
        return http.sendAsync(
                request,
                info -> info.statusCode() == 200
                        ? BodySubscribers.fromLineSubscriber(lines, subscriber -> "", StandardCharsets.UTF_8, null)
                        : BodySubscribers.ofString(StandardCharsets.UTF_8));
    }

    static boolean isExpired(HttpResponse<String> response) {
        return response.statusCode() == 404 && "lease_expired".equals(code(response.body()));
    }

    /** Verify, as the storage backend calls it without the library. */
    Answer verify(String rawKey, String clientIp) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve("api/v1/api-keys/verify"))
                .timeout(VERIFY_TIMEOUT)
                .header("Authorization", "Bearer " + rawKey);
        if (clientIp == null) {
            request.POST(HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"client_ip\":" + Json.quote(clientIp) + "}"));
        }
        HttpResponse<String> response = send(request);
        Map<String, Object> body;
        try {
            body = Json.object(response.body());
        } catch (IllegalArgumentException notJson) {
            body = null;
        }
        return new Answer(response.statusCode(), body);
    }

    private HttpRequest.Builder leaseCall(String path, Duration timeout) {
        return HttpRequest.newBuilder(base.resolve(path)).timeout(timeout).header("Authorization", bearer);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static void expired(HttpResponse<String> response) throws LeaseExpired {
        if (isExpired(response)) {
            throw new LeaseExpired();
        }
    }

    private static Refused refused(String call, HttpResponse<String> response) {
        return new Refused(call, response.statusCode(), code(response.body()));
    }

    private static String code(String body) {
        try {
            return Json.object(body).get("code") instanceof String code ? code : null;
        } catch (IllegalArgumentException notJson) {
            return null;
        }
    }
}
