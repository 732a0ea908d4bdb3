package com.kvportal.apikey.lease;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * A minimal Server-Sent Events client over {@code java.net.http}, as a holder written from docs/storage-backend.md
 * reads a verify lease's stream: lines up to a blank line make one event ({@code id}, {@code event}, {@code data});
 * comment lines ({@code : keepalive}) are counted apart. Every line is kept as it came, to check the wire format.
 */
final class EventStream implements AutoCloseable {

    /** One event as the stream framed it. */
    record Event(@Nullable String id, @Nullable String event, @Nullable String data, List<String> lines) {}

    private final String base;
    private final HttpResponse<Stream<String>> response;
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final BlockingQueue<String> comments = new LinkedBlockingQueue<>();
    private final Thread reader;
    private volatile boolean ended;

    private EventStream(String base, HttpResponse<Stream<String>> response) {
        this.base = base;
        this.response = response;
        this.reader = new Thread(this::read, "test-event-stream");
        reader.setDaemon(true);
        reader.start();
    }

    /** Opens {@code GET base + path} with the bearer token; the answer's status and headers are known at once. */
    static EventStream open(String base, String path, String token) {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path))
                .header("Authorization", "Bearer " + token)
                .header("Accept", "text/event-stream")
                .GET()
                .build();
        try {
            return new EventStream(base, http.send(request, HttpResponse.BodyHandlers.ofLines()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    String base() {
        return base;
    }

    int status() {
        return response.statusCode();
    }

    @Nullable
    String header(String name) {
        return response.headers().firstValue(name).orElse(null);
    }

    /** The body, for a stream that was refused (a problem document, all of it). */
    String body() {
        StringBuilder body = new StringBuilder();
        while (!ended || !comments.isEmpty()) {
            String line = comments.poll();
            if (line == null) {
                sleep();
                continue;
            }
            body.append(line).append('\n');
        }
        return body.toString();
    }

    /** The next event, or null when none came within {@code timeout}. */
    @Nullable
    Event next(Duration timeout) throws InterruptedException {
        return events.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The next comment line, or null when none came within {@code timeout}. */
    @Nullable
    String nextComment(Duration timeout) throws InterruptedException {
        return comments.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Whether the server ended the stream. */
    boolean ended() {
        return ended;
    }

    private void read() {
        List<String> lines = new ArrayList<>();
        try (Stream<String> body = response.body()) {
            body.forEach(line -> {
                if (response.statusCode() != 200) {
                    comments.add(line);
                } else if (line.isEmpty()) {
                    if (!lines.isEmpty()) {
                        events.add(event(List.copyOf(lines)));
                        lines.clear();
                    }
                } else if (line.startsWith(":")) {
                    comments.add(line);
                } else {
                    lines.add(line);
                }
            });
        } catch (UncheckedIOException | IllegalStateException e) {
            // closed
        } finally {
            ended = true;
        }
    }

    private static Event event(List<String> lines) {
        String id = null;
        String event = null;
        String data = null;
        for (String line : lines) {
            int colon = line.indexOf(':');
            String field = line.substring(0, colon);
            String value =
                    line.substring(colon + 1).startsWith(" ") ? line.substring(colon + 2) : line.substring(colon + 1);
            switch (field) {
                case "id" -> id = value;
                case "event" -> event = value;
                case "data" -> data = value;
                default -> {}
            }
        }
        return new Event(id, event, data, lines);
    }

    private static void sleep() {
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        reader.interrupt();
        try {
            response.body().close();
        } catch (RuntimeException ignored) {
            // closing
        }
    }
}
