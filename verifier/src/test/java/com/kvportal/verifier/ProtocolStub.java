package com.kvportal.verifier;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The service's side of the lease protocol, as far as {@link KeyVerifierProtocolTest} needs it to drive the library
 * into what the real service rarely does on cue (a renewal that fails, a lease it lets expire, a stream that falls
 * silent), with the JDK's own HTTP server. The library against the real service: the service's VerifierClusterIT.
 */
final class ProtocolStub implements AutoCloseable {

    static final String GOOD_KEY = "kv_good";
    static final UUID KEY_ID = UUID.fromString("11111111-2222-4333-8444-555555555555");
    static final UUID ORGANIZATION_ID = UUID.fromString("aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee");

    final long ttlMillis;
    final AtomicInteger leases = new AtomicInteger();
    final AtomicInteger renewals = new AtomicInteger();
    final AtomicInteger streams = new AtomicInteger();
    final AtomicInteger verifies = new AtomicInteger();
    final List<Long> acks = new CopyOnWriteArrayList<>();
    volatile int renewStatus = 200;
    volatile boolean leaseExpired;
    volatile boolean silent;

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final BlockingDeque<String> events = new LinkedBlockingDeque<>();
    private volatile String leaseId;

    ProtocolStub(long ttlMillis) throws IOException {
        this.ttlMillis = ttlMillis;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(threads);
        server.createContext("/api/v1/verify-leases", this::lease);
        server.createContext("/api/v1/api-keys/verify", this::verify);
        server.start();
    }

    URI base() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Sends an event on the open stream (or the next one). */
    void event(long seq, String type, UUID keyId, UUID organizationId) {
        StringBuilder data = new StringBuilder("{\"seq\":" + seq + ",\"type\":\"" + type + "\"");
        if (keyId != null) {
            data.append(",\"key_id\":\"").append(keyId).append('"');
        }
        if (organizationId != null) {
            data.append(",\"organization_id\":\"").append(organizationId).append('"');
        }
        events.add("id: " + seq + "\nevent: " + type + "\ndata: " + data + "}\n\n");
    }

    private void lease(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        if (path.equals("/api/v1/verify-leases")) {
            leaseId = UUID.randomUUID().toString();
            leaseExpired = false;
            leases.incrementAndGet();
            answer(
                    exchange,
                    201,
                    "{\"lease_id\":\"" + leaseId + "\",\"ttl_ms\":" + ttlMillis
                            + ",\"events_url\":\"/api/v1/verify-leases/" + leaseId + "/events\"}");
        } else if (leaseExpired || !path.contains(leaseId)) {
            answer(exchange, 404, "{\"status\":404,\"code\":\"lease_expired\"}");
        } else if (path.endsWith("/renew")) {
            renewals.incrementAndGet();
            answer(exchange, renewStatus, renewStatus == 200 ? "{\"ttl_ms\":" + ttlMillis + "}" : "{}");
        } else if (path.endsWith("/ack")) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            acks.add((Long) Json.object(body).get("seq"));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        } else if (path.endsWith("/events")) {
            stream(exchange);
        }
    }

    private void stream(HttpExchange exchange) throws IOException {
        int stream = streams.incrementAndGet(); // a newer stream ends this one, as a new connection replaces it
        String lease = leaseId;
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            long nextKeepalive = System.nanoTime();
            while (lease.equals(leaseId) && !leaseExpired && stream == streams.get()) {
                String event = events.poll(50, TimeUnit.MILLISECONDS);
                if (event != null && stream != streams.get()) {
                    events.addFirst(event); // replaced meanwhile: the new stream sends it, as the service resends
                    break;
                }
                if (event != null) {
                    out.write(event.getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
                if (!silent && System.nanoTime() - nextKeepalive >= 0) {
                    out.write(": keepalive\n\n".getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    nextKeepalive = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
                }
            }
        } catch (IOException | InterruptedException gone) {
            // the library went away
        }
    }

    private void verify(HttpExchange exchange) throws IOException {
        verifies.incrementAndGet();
        String key = exchange.getRequestHeaders().getFirst("Authorization").substring("Bearer ".length());
        if (key.equals(GOOD_KEY)) {
            answer(
                    exchange,
                    200,
                    """
                    {"key_id":"%s","customer_id":"c1111111-2222-4333-8444-555555555555",
                     "project_id":"b1111111-2222-4333-8444-555555555555","organization_id":"%s",
                     "permissions":["write"],"tier":"free","storage":{"write_allowed":true},"cacheable":true,
                     "allowed_ips":null}"""
                            .formatted(KEY_ID, ORGANIZATION_ID));
        } else {
            answer(exchange, 401, "{\"status\":401,\"code\":\"invalid_api_key\"}");
        }
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        leaseExpired = true;
        server.stop(0);
        threads.shutdownNow();
    }
}
