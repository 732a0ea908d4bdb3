package com.kvportal.support;

import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.WebhookVerificationException;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * A webhook receiver for tests: the JDK's HTTP server on 127.0.0.1, answering as told ({@link Mode}), and keeping
 * every request it got. {@link Received#verify} checks a delivery with the Standard Webhooks reference library, as a
 * customer's receiver would.
 */
public final class WebhookReceiver implements AutoCloseable {

    /**
     * On a test class: the service may deliver to a receiver on this machine (private targets allowed), and looks
     * for due deliveries every 100 ms.
     */
    @Target(ElementType.TYPE)
    @Retention(RetentionPolicy.RUNTIME)
    @TestPropertySource(
            properties = {"kvportal.webhooks.allow-private-targets=true", "kvportal.webhooks.poll-interval=100ms"})
    public @interface Reachable {}

    /** How the receiver answers. */
    public enum Mode {
        /** 204 */
        OK,
        /** 500 */
        FAIL,
        /** never answers (the sender's timeout ends the attempt) */
        HANG,
        /** closes the connection without answering */
        CLOSE,
        /** 200, then a body without end (the sender must stop reading) */
        ENDLESS_BODY
    }

    /** A request as it arrived: its headers (names in lower case, first value) and its body. */
    public record Received(Map<String, String> headers, String body, long atMillis) {

        public String id() {
            return headers.get("webhook-id");
        }

        public JsonNode json() {
            return Api.JSON.readTree(body);
        }

        /** Verifies the delivery with {@code secret}, as the reference library does (throws when it fails). */
        public void verify(String secret) throws WebhookVerificationException {
            Map<String, List<String>> headers = this.headers.entrySet().stream()
                    .collect(Collectors.toMap(Map.Entry::getKey, e -> List.of(e.getValue())));
            new Webhook(secret).verify(body, headers);
        }
    }

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final AtomicReference<Mode> mode = new AtomicReference<>(Mode.OK);
    private final AtomicInteger endlessBodiesCut = new AtomicInteger();

    public WebhookReceiver() {
        this(0);
    }

    /** A receiver on this port of 127.0.0.1 (0: any free port). */
    public WebhookReceiver(int port) {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 50);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", this::handle);
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hooks";
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public WebhookReceiver answer(Mode mode) {
        this.mode.set(mode);
        return this;
    }

    public List<Received> received() {
        return List.copyOf(received);
    }

    /** How many endless bodies ended because the sender closed the connection. */
    public int endlessBodiesCut() {
        return endlessBodiesCut.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        Map<String, String> headers = exchange.getRequestHeaders().entrySet().stream()
                .collect(Collectors.toMap(e -> e.getKey().toLowerCase(Locale.ROOT), e -> e.getValue()
                        .get(0)));
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        received.add(new Received(headers, body, System.currentTimeMillis()));
        switch (mode.get()) {
            case OK -> {
                exchange.sendResponseHeaders(204, -1);
                exchange.close();
            }
            case FAIL -> {
                byte[] answer = "down for maintenance".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(500, answer.length);
                exchange.getResponseBody().write(answer);
                exchange.close();
            }
            case HANG -> {
                try {
                    Thread.sleep(60_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                exchange.close();
            }
            case CLOSE -> exchange.close();
            case ENDLESS_BODY -> {
                exchange.sendResponseHeaders(200, 0);
                byte[] chunk = new byte[64 * 1024];
                try (OutputStream out = exchange.getResponseBody()) {
                    for (long sent = 0; sent < 10L * 1024 * 1024 * 1024; sent += chunk.length) {
                        out.write(chunk);
                    }
                } catch (IOException cut) {
                    endlessBodiesCut.incrementAndGet();
                }
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
