package com.kvportal.verifier;

import com.kvportal.verifier.ServiceCalls.Lease;
import com.kvportal.verifier.ServiceCalls.LeaseExpired;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Verifies kv-portal API keys inside the storage backend's process: from memory in well under a microsecond for a
 * key it has seen, and never accepting a key once a change that narrows it (a revoke, a disable, narrower
 * permissions or addresses, an earlier expiry, a deleted organization) has been answered by the service.
 *
 * <p>It holds a lease on the service (taken with the usage token, renewed every third of its ttl), follows the
 * lease's event stream, drops the answers each event names and acknowledges them; the service answers a narrowing
 * change only once every lease has acknowledged it or expired. It trusts its cache only while its lease is fresh by
 * its own monotonic clock, and asks the service whenever it cannot: a verify never fails because the lease does.
 * docs/storage-backend.md, "Verify in your own process", says what it guarantees and how the protocol goes.
 *
 * <pre>{@code
 * KeyVerifier verifier = KeyVerifier.connect(URI.create("https://portal.example.com"), usageToken);
 * Verification key = verifier.verify(rawKey, clientIp);
 * if (!key.valid()) { refuse(401, key.code()); }
 * }</pre>
 *
 * Thread-safe: one instance serves every thread of the process. {@link #close()} stops its threads.
 */
public final class KeyVerifier implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(KeyVerifier.class.getName());

    /** Answers kept at most (a refused key's answer included): beyond it the service is asked every time. */
    static final int CAPACITY = 200_000;
    /** How long a stream may stay silent (the service sends a keepalive every second) before it is reopened. */
    private static final long STREAM_SILENCE_NANOS = TimeUnit.SECONDS.toNanos(3);
    /** A cached answer of a key is asked again from this long before the key expires (clocks differ). */
    private static final long EXPIRY_MARGIN_MILLIS = 1_000;
    /**
     * A cached answer without the key's {@code expires_at} is asked again after this long: the key may expire
     * meanwhile, which is no change the service announces.
     */
    static final long ASK_AGAIN_WITHOUT_EXPIRY_MILLIS = 10_000;

    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);
    private static final Verification MISSING_KEY = Verification.refused("invalid_api_key");

    private final ServiceCalls calls;
    private final TrustClock trust = new TrustClock(System::nanoTime);
    private final AnswerCache cache = new AnswerCache(CAPACITY, System::nanoTime);
    private final ScheduledExecutorService leaseThread = Executors.newSingleThreadScheduledExecutor(daemon("lease"));
    private final ExecutorService ackThread = Executors.newSingleThreadExecutor(daemon("ack"));
    private final ExecutorService httpThreads = Executors.newCachedThreadPool(daemon("http"));

    /** The lease held now, or null while it is being taken. */
    private volatile Held held;

    private volatile Connection events;
    private volatile boolean closed;

    private KeyVerifier(URI baseUrl, String usageToken) {
        HttpClient http = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(2))
                .executor(httpThreads)
                .build();
        this.calls = new ServiceCalls(baseUrl, usageToken, http);
    }

    /**
     * Connects to the service at {@code baseUrl} (e.g. {@code https://portal.example.com}) with its {@code
     * USAGE_API_TOKEN}: takes a lease and opens its event stream. A service that cannot be reached does not fail
     * this call (the lease is taken as soon as it answers, and verify asks the service meanwhile); a token the
     * service refuses does: {@link IllegalArgumentException}.
     */
    public static KeyVerifier connect(URI baseUrl, String usageToken) {
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(usageToken, "usageToken");
        KeyVerifier verifier = new KeyVerifier(baseUrl, usageToken);
        try {
            verifier.takeLease();
        } catch (ServiceCalls.Refused refused) {
            verifier.close();
            throw new IllegalArgumentException(
                    "kv-portal refused the lease (" + refused.getMessage()
                            + "): connect with the USAGE_API_TOKEN the service is configured with",
                    refused);
        }
        verifier.leaseThread.scheduleWithFixedDelay(verifier::watchStream, 500, 500, TimeUnit.MILLISECONDS);
        return verifier;
    }

    /** {@link #verify(String, String)} without a client address: a key with allowed addresses is refused. */
    public Verification verify(String rawKey) {
        return verify(rawKey, null);
    }

    /**
     * What the service's verify answers for this key presented by a client at {@code clientIp} (an IPv4 or IPv6
     * address; null when unknown): from memory when it can, else from the service.
     *
     * @throws KeyVerifierException when the service had to be asked and gave no answer
     */
    public Verification verify(String rawKey, String clientIp) {
        if (rawKey == null) {
            return MISSING_KEY;
        }
        Digest digest = Digest.of(rawKey);
        if (trust.trusted()) {
            AnswerCache.Entry entry = cache.get(digest);
            if (entry != null) {
                Verification answer = entry.answer(clientIp);
                if (answer != null) {
                    return answer;
                }
            }
        }
        return ask(rawKey, clientIp, digest);
    }

    /** Whether verify answers from memory now (a lease is held and fresh). */
    public boolean cacheTrusted() {
        return trust.trusted();
    }

    /** How many answers are kept now (0 while no lease is held, and in a new lease's first two ttls). */
    public int cachedAnswers() {
        return cache.size();
    }

    /** Stops the lease's renewals, the event stream and the threads; verify must not be called afterwards. */
    @Override
    public void close() {
        closed = true;
        held = null;
        trust.lapse();
        cache.clear();
        Connection connection = events;
        if (connection != null) {
            connection.end();
        }
        leaseThread.shutdownNow();
        ackThread.shutdownNow();
        httpThreads.shutdownNow();
    }

    private Verification ask(String rawKey, String clientIp, Digest digest) {
        Held lease = held;
        long generation = cache.generation();
        long started = trust.now();
        ServiceCalls.Answer answer;
        try {
            answer = calls.verify(rawKey, clientIp);
        } catch (IOException e) {
            throw new KeyVerifierException("kv-portal did not answer verify: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KeyVerifierException("interrupted while asking kv-portal to verify", e);
        }
        Answered answered = Answered.of(answer);
        // only an answer asked under the lease held now may be kept (events before it never reach this process),
        // and not in its first moments (Held.keepFromNanos)
        if (answered.entry() != null && lease != null && held == lease && lease.mayKeep(started)) {
            cache.put(digest, answered.entry(), generation, started);
        }
        return answered.verification();
    }

    /** Verify's answer, and what the cache may keep of it (null: nothing). */
    record Answered(Verification verification, AnswerCache.Entry entry) {

        static Answered of(ServiceCalls.Answer answer) {
            Map<String, Object> body = answer.body();
            if (answer.status() == 200 && body != null) {
                return valid(body);
            }
            String code = answer.code() != null ? answer.code() : "http_" + answer.status();
            Verification refused = Verification.refused(code);
            // unknown and revoked keys stay refused for good; an expired or disabled key may come back: asked again
            boolean forGood =
                    answer.status() == 401 && (code.equals("invalid_api_key") || code.equals("api_key_revoked"));
            return new Answered(
                    refused, forGood ? new AnswerCache.Entry(refused, null, null, null, AnswerCache.NEVER) : null);
        }

        @SuppressWarnings("unchecked")
        private static Answered valid(Map<String, Object> body) {
            Map<String, Object> storage =
                    body.get("storage") instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
            Verification verification = Verification.valid(
                    uuid(body.get("key_id")),
                    uuid(body.get("customer_id")),
                    uuid(body.get("project_id")),
                    uuid(body.get("organization_id")),
                    ((List<Object>) body.getOrDefault("permissions", List.of()))
                            .stream().map(String::valueOf).toList(),
                    (String) body.get("tier"),
                    Boolean.TRUE.equals(storage.get("write_allowed")));
            if (!Boolean.TRUE.equals(body.get("cacheable")) || verification.keyId() == null) {
                return new Answered(verification, null); // rate limits or credits: the service counts every use
            }
            AllowedAddresses allowed = body.get("allowed_ips") instanceof List<?> entries
                    ? AllowedAddresses.of(entries.stream().map(String::valueOf).toList())
                    : null;
            long askAgainAt = System.currentTimeMillis() + ASK_AGAIN_WITHOUT_EXPIRY_MILLIS;
            if (body.get("expires_at") instanceof String expiresAt) {
                try {
                    askAgainAt = Instant.parse(expiresAt).toEpochMilli() - EXPIRY_MARGIN_MILLIS;
                } catch (DateTimeParseException e) {
                    return new Answered(verification, null);
                }
            }
            return new Answered(
                    verification,
                    new AnswerCache.Entry(
                            verification, verification.keyId(), verification.organizationId(), allowed, askAgainAt));
        }

        private static UUID uuid(Object value) {
            return value instanceof String text ? UUID.fromString(text) : null;
        }
    }

    // ---- the lease: taken, renewed and replaced on the lease thread ----

    /** A lease and its acknowledgements. */
    private static final class Held {
        final Lease lease;
        /**
         * Answers of calls started from this moment on may be kept: two ttls after the lease was taken. A lease starts
         * with every event so far counted as acknowledged, yet a change logged just before may still be waiting for
         * the service's instances (at most ttl + ttl/3), and an instance that has not applied it yet may answer the
         * old state meanwhile; that change's event never reaches this lease.
         */
        final long keepFromNanos;

        final AtomicLong handled = new AtomicLong();
        long acknowledged;

        Held(Lease lease, long takenAtNanos) {
            this.lease = lease;
            this.keepFromNanos = takenAtNanos + 2 * lease.ttlMillis() * 1_000_000L;
        }

        boolean mayKeep(long callStartedNanos) {
            return callStartedNanos - keepFromNanos >= 0;
        }
    }

    private void takeLease() throws ServiceCalls.Refused {
        if (closed) {
            return;
        }
        long start = trust.now();
        try {
            Lease lease = calls.takeLease(CALL_TIMEOUT);
            Held taken = new Held(lease, start);
            synchronized (this) {
                if (closed) {
                    return;
                }
                held = taken;
                trust.renewed(start, lease.ttlMillis());
            }
            openEvents(taken);
            leaseThread.schedule(() -> renew(taken), renewDelayMillis(lease, start), TimeUnit.MILLISECONDS);
        } catch (ServiceCalls.Refused refused) {
            if (refused.status == 401 || refused.status == 403) {
                throw refused;
            }
            retryTakeLease(refused);
        } catch (IOException | RuntimeException e) {
            retryTakeLease(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void retryTakeLease(Exception why) {
        LOG.log(Level.WARNING, "kv-portal: no lease ({0}); verify asks the service until one is taken", why.toString());
        leaseThread.schedule(this::takeLeaseAgain, 1, TimeUnit.SECONDS);
    }

    private void takeLeaseAgain() {
        try {
            takeLease();
        } catch (ServiceCalls.Refused refused) {
            LOG.log(Level.ERROR, "kv-portal refused the usage token: {0}", refused.getMessage());
            leaseThread.schedule(this::takeLeaseAgain, 5, TimeUnit.SECONDS);
        }
    }

    private void renew(Held lease) {
        if (closed || held != lease) {
            return;
        }
        long start = trust.now();
        long ttl = lease.lease.ttlMillis();
        try {
            ttl = calls.renew(lease.lease, Duration.ofMillis(Math.max(100, ttl / 3)));
            synchronized (this) {
                if (held == lease) {
                    trust.renewed(start, ttl);
                }
            }
            long delay = Math.max(0, ttl / 3 - (trust.now() - start) / 1_000_000);
            leaseThread.schedule(() -> renew(lease), delay, TimeUnit.MILLISECONDS);
        } catch (LeaseExpired expired) {
            lost(lease, "the service let the lease expire");
        } catch (IOException | RuntimeException e) {
            // the cache stops being trusted by the clock alone; renew sooner while there is time left
            LOG.log(Level.DEBUG, "kv-portal: renewing the lease failed: {0}", e.toString());
            leaseThread.schedule(() -> renew(lease), Math.max(50, ttl / 10), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static long renewDelayMillis(Lease lease, long startNanos) {
        return Math.max(0, lease.ttlMillis() / 3 - (System.nanoTime() - startNanos) / 1_000_000);
    }

    /** The lease is gone: forget everything learned under it, and take a new one. */
    private void lost(Held lease, String why) {
        synchronized (this) {
            if (held != lease) {
                return;
            }
            held = null;
            trust.lapse();
            cache.clear();
        }
        LOG.log(Level.INFO, "kv-portal: {0}; the cache is emptied and a new lease taken", why);
        Connection connection = events;
        if (connection != null && connection.lease == lease) {
            connection.end();
        }
        if (!closed) {
            leaseThread.execute(this::takeLeaseAgain);
        }
    }

    // ---- the event stream ----

    private void openEvents(Held lease) {
        if (closed || held != lease) {
            return;
        }
        Connection connection = new Connection(lease);
        events = connection;
        calls.events(lease.lease, connection, CALL_TIMEOUT).whenComplete((response, error) -> {
            if (response != null && ServiceCalls.isExpired(response)) {
                leaseThread.execute(() -> lost(lease, "the event stream answered lease_expired"));
            } else if (!connection.superseded) {
                connection.superseded = true;
                leaseThread.schedule(() -> openEvents(lease), 200, TimeUnit.MILLISECONDS);
            }
        });
    }

    /** Reopens a stream that stayed silent longer than the keepalives allow (a half-open connection). */
    private void watchStream() {
        Connection connection = events;
        if (connection != null
                && !connection.superseded
                && trust.now() - connection.lastLineNanos > STREAM_SILENCE_NANOS) {
            connection.end();
            openEvents(connection.lease);
        }
    }

    private void handle(Held lease, EventStream.Event event) {
        if (held != lease) {
            return;
        }
        // until the change answers (at most ttl + ttl/3 after it was made), an instance may still answer its old
        // state: what the event names is not kept from calls started in the next two ttls
        long quarantine = 2 * lease.lease.ttlMillis() * 1_000_000L;
        switch (event.type()) {
            case "key.changed" -> {
                if (event.keyId() != null) {
                    cache.dropKey(event.keyId(), quarantine);
                } else {
                    cache.reset(quarantine);
                }
            }
            case "organization.changed" -> {
                if (event.organizationId() != null) {
                    cache.dropOrganization(event.organizationId(), quarantine);
                } else {
                    cache.reset(quarantine);
                }
            }
            default -> cache.reset(quarantine); // reset, or a type this library does not know: nothing kept is sure
        }
        lease.handled.accumulateAndGet(event.seq(), Math::max);
        ackThread.execute(() -> acknowledge(lease));
    }

    /** Acknowledges every handled event in one call (events handled meanwhile are acknowledged together). */
    private void acknowledge(Held lease) {
        long seq = lease.handled.get();
        if (seq <= lease.acknowledged || held != lease) {
            return;
        }
        try {
            calls.ack(lease.lease, seq, CALL_TIMEOUT);
            lease.acknowledged = seq;
        } catch (LeaseExpired expired) {
            leaseThread.execute(() -> lost(lease, "an acknowledgement answered lease_expired"));
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "kv-portal: acknowledging events failed ({0}); trying again", e.toString());
            leaseThread.schedule(() -> ackThread.execute(() -> acknowledge(lease)), 50, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One opening of a lease's event stream: its lines go through the parser to {@link #handle}. */
    private final class Connection implements Flow.Subscriber<String> {
        final Held lease;
        final EventStream parser;
        volatile long lastLineNanos = trust.now();
        volatile boolean superseded;
        private volatile Flow.Subscription subscription;

        Connection(Held lease) {
            this.lease = lease;
            this.parser = new EventStream(event -> handle(lease, event));
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(String line) {
            if (superseded) {
                return;
            }
            lastLineNanos = trust.now();
            try {
                parser.line(line);
            } catch (RuntimeException malformed) {
                LOG.log(Level.WARNING, "kv-portal: a malformed event ({0}); reconnecting", malformed.toString());
                cancel();
            }
        }

        @Override
        public void onError(Throwable error) {}

        @Override
        public void onComplete() {}

        /** This connection is done with: no reconnection follows from it. */
        void end() {
            superseded = true;
            cancel();
        }

        private void cancel() {
            Flow.Subscription current = subscription;
            if (current != null) {
                current.cancel();
            }
        }
    }

    private static ThreadFactory daemon(String name) {
        AtomicLong count = new AtomicLong();
        return runnable -> {
            Thread thread = new Thread(runnable, "kv-verifier-" + name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
