package com.kvportal.apikey.web;

import com.kvportal.apikey.cache.VerifyLeases;
import com.kvportal.apikey.cache.VerifyLeases.Event;
import com.kvportal.apikey.cache.VerifyLeases.Events;
import com.kvportal.common.scheduling.BackgroundLifecycle;
import com.kvportal.common.scheduling.BackgroundThreads;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import lombok.RequiredArgsConstructor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;

/**
 * The Server-Sent Events streams of verify leases, each written by a thread of its own: first every event after the
 * lease's acknowledged sequence (or one {@code reset} when that part of the log is gone), then each new one as this
 * instance hears of it ({@code NOTIFY}), and a {@code : keepalive} comment every second. A stream ends when its lease
 * is no longer live, when the holder goes away, and when the instance stops (before the web server drains its
 * requests, so that no stream holds the shutdown up). The wire format is docs/storage-backend.md's.
 */
@Component
@RequiredArgsConstructor
class LeaseEventStreams extends BackgroundLifecycle {

    private static final Logger log = LoggerFactory.getLogger(LeaseEventStreams.class);

    static final MediaType EVENT_STREAM = MediaType.TEXT_EVENT_STREAM;
    private static final MediaType TEXT = new MediaType("text", "plain", StandardCharsets.UTF_8);
    private static final long KEEPALIVE_MILLIS = 1000;
    private static final String KEEPALIVE = ": keepalive\n\n";

    private final VerifyLeases leases;
    private final Map<ResponseBodyEmitter, Thread> open = new ConcurrentHashMap<>();

    /** Opens the stream of a lease whose events after {@code acknowledged} are due. */
    ResponseBodyEmitter open(UUID leaseId, long acknowledged) {
        // no timeout: the stream lasts as long as its lease
        ResponseBodyEmitter emitter = new ResponseBodyEmitter(-1L);
        Thread thread = BackgroundThreads.named("verify-lease-events-" + leaseId)
                .newThread(() -> follow(leaseId, acknowledged, emitter));
        open.put(emitter, thread);
        thread.start();
        return emitter;
    }

    private void follow(UUID leaseId, long acknowledged, ResponseBodyEmitter emitter) {
        long cursor = acknowledged;
        long nextKeepalive = System.nanoTime();
        try {
            while (isRunning()) {
                Events read = leases.after(cursor);
                if (!read.events().isEmpty()) {
                    emitter.send(frames(read), TEXT);
                }
                cursor = read.upTo();
                long now = System.nanoTime();
                if (now - nextKeepalive >= 0) {
                    if (!leases.isLive(leaseId)) {
                        break;
                    }
                    emitter.send(KEEPALIVE, TEXT);
                    nextKeepalive = now + TimeUnit.MILLISECONDS.toNanos(KEEPALIVE_MILLIS);
                }
                long wait = Math.max(1, TimeUnit.NANOSECONDS.toMillis(nextKeepalive - System.nanoTime()));
                leases.awaitBeyond(cursor, wait);
            }
        } catch (IOException | IllegalStateException e) {
            // the holder went away (or the request is over): nothing to answer
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.warn("The event stream of verify lease {} ends ({}); the holder reconnects", leaseId, e.toString());
        } finally {
            open.remove(emitter);
            try {
                emitter.complete();
            } catch (RuntimeException ignored) {
                // already completed
            }
        }
    }

    /** Each event as its {@code id}, {@code event} and {@code data} lines and a blank line. */
    static String frames(Events read) {
        StringBuilder frames = new StringBuilder();
        for (Event event : read.events()) {
            String type = event.type().wire();
            frames.append("id: ").append(event.seq()).append('\n');
            frames.append("event: ").append(type).append('\n');
            frames.append("data: {\"seq\":")
                    .append(event.seq())
                    .append(",\"type\":\"")
                    .append(type)
                    .append('"');
            if (event.keyId() != null) {
                frames.append(",\"key_id\":\"").append(event.keyId()).append('"');
            }
            if (event.organizationId() != null) {
                frames.append(",\"organization_id\":\"")
                        .append(event.organizationId())
                        .append('"');
            }
            frames.append("}\n\n");
        }
        return frames.toString();
    }

    @Override
    public void stop() {
        super.stop();
        for (Thread thread : open.values()) {
            thread.interrupt();
        }
        for (Thread thread : open.values()) {
            try {
                thread.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Stops before the web server drains its requests (graceful shutdown), which would otherwise wait for streams. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 512;
    }
}
