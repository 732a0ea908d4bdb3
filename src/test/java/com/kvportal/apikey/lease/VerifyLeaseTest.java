package com.kvportal.apikey.lease;

import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.ApiDocument;
import com.kvportal.support.IntegrationTest;
import com.kvportal.support.StorageSamples;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The verify leases of holders outside the service, over real HTTP and PostgreSQL: taking, renewing and acknowledging
 * a lease, its event stream, the 404 {@code lease_expired} of a lease that is unknown, expired or stopped, and the
 * wait of a narrowing change for a holder's acknowledgement (docs/storage-backend.md, "Verify in your own process").
 */
class VerifyLeaseTest extends IntegrationTest {

    private static final String LEASES = "/api/v1/verify-leases";
    private static final Duration SOON = Duration.ofSeconds(5);

    private final List<UUID> taken = new java.util.ArrayList<>();

    /**
     * Gives up the leases this test took, as a holder that stops would let them run out: a live lease that is never
     * acknowledged would hold up the revocations of the next tests on this context by up to a lease.
     */
    @AfterEach
    void giveUpTheLeases() {
        for (UUID id : taken) {
            jdbc.sql("delete from key_cache_leases where instance_id = ? and kind = 'holder'")
                    .param(id)
                    .update();
        }
    }

    /**
     * Reads the service's OpenAPI document before any lease is taken: the test client checks every answer against it,
     * and its first reading (seconds on a loaded machine) must not eat a lease's time.
     */
    @BeforeEach
    void readTheDocumentFirst() {
        ApiDocument.of(baseUrl());
    }

    private Api backend() {
        return Api.withKey(baseUrl(), USAGE_TOKEN);
    }

    /** A lease just taken: its id and stream path. */
    private record Lease(UUID id, String eventsUrl) {
        String path() {
            return LEASES + "/" + id;
        }
    }

    private Lease take() {
        Api.Response taken = backend().post(LEASES);
        assertThat(taken.status()).as(taken.toString()).isEqualTo(201);
        UUID id = UUID.fromString(taken.json().get("lease_id").asString());
        this.taken.add(id);
        return new Lease(id, taken.json().get("events_url").asString());
    }

    private EventStream follow(Lease lease) {
        EventStream stream = EventStream.open(baseUrl(), lease.eventsUrl(), USAGE_TOKEN);
        assertThat(stream.status()).isEqualTo(200);
        return stream;
    }

    private long appliedSeq(Lease lease) {
        return single(Long.class, "select applied_seq from key_cache_leases where instance_id = ?", lease.id());
    }

    @Test
    void shouldTakeRenewAndAcknowledgeALeaseWithTheUsageToken() {
        Api.Response taken = backend().post(LEASES);

        assertThat(taken.status()).isEqualTo(201);
        JsonNode body = taken.json();
        UUID id = UUID.fromString(body.get("lease_id").asString());
        this.taken.add(id);
        assertThat(body.get("ttl_ms").asLong()).isEqualTo(3000);
        assertThat(body.get("events_url").asString()).isEqualTo(LEASES + "/" + id + "/events");
        assertThat(taken.header("Location")).isEqualTo(LEASES + "/" + id);
        assertThat(count("select count(*) from key_cache_leases where instance_id = ? and kind = 'holder'", id))
                .isEqualTo(1);

        Api.Response renewed = backend().post(LEASES + "/" + id + "/renew");

        assertThat(renewed.status()).isEqualTo(200);
        assertThat(renewed.json().get("ttl_ms").asLong()).isEqualTo(3000);

        long highest = single(Long.class, "select seq from key_invalidation_sequence");
        Api.Response acked = backend().post(LEASES + "/" + id + "/ack", Map.of("seq", highest));

        assertThat(acked.status()).as(acked.toString()).isEqualTo(204);
        assertThat(appliedSeq(new Lease(id, ""))).isGreaterThanOrEqualTo(highest);
    }

    @Test
    void shouldRefuseEveryLeaseCallWithoutTheUsageToken() {
        Lease lease = take();
        Api customer = signedUp();
        String key = customer.createKey("not the token");
        for (Api caller : List.of(api(), Api.withKey(baseUrl(), "wrong-token"), Api.withKey(baseUrl(), key))) {
            assertProblem(caller.post(LEASES), 401, "unauthenticated");
            assertProblem(caller.post(lease.path() + "/renew"), 401, "unauthenticated");
            assertProblem(caller.post(lease.path() + "/ack", Map.of("seq", 0)), 401, "unauthenticated");
            assertProblem(caller.get(lease.eventsUrl()), 401, "unauthenticated");
        }
        assertThat(count("select count(*) from key_cache_leases where kind = 'holder' and instance_id = ?", lease.id()))
                .isEqualTo(1);
    }

    @Test
    void shouldAnswerLeaseExpiredForAnUnknownLease() {
        String unknown = LEASES + "/" + UUID.randomUUID();

        assertProblem(backend().post(unknown + "/renew"), 404, "lease_expired");
        assertProblem(backend().post(unknown + "/ack", Map.of("seq", 0)), 404, "lease_expired");
        assertProblem(backend().get(unknown + "/events"), 404, "lease_expired");
        try (EventStream stream = EventStream.open(baseUrl(), unknown + "/events", USAGE_TOKEN)) {
            assertThat(stream.status()).isEqualTo(404);
            assertThat(stream.header("Content-Type")).startsWith("application/problem+json");
            assertThat(stream.body()).contains("\"code\":\"lease_expired\"");
        }
    }

    @Test
    void shouldAnswerLeaseExpiredForALeaseThatRanOut() throws InterruptedException {
        Lease lease = take();

        Thread.sleep(3_200);

        assertProblem(backend().post(lease.path() + "/renew"), 404, "lease_expired");
        assertProblem(backend().post(lease.path() + "/ack", Map.of("seq", 0)), 404, "lease_expired");
        assertProblem(backend().get(lease.eventsUrl()), 404, "lease_expired");
        assertThat(single(
                        Boolean.class,
                        "select expires_at < now() from key_cache_leases where instance_id = ?",
                        lease.id()))
                .as("the refused renewal extended nothing")
                .isTrue();
    }

    @Test
    void shouldRefuseAnAcknowledgementBeyondTheHighestSeqChangingNothing() {
        Lease lease = take();
        long before = appliedSeq(lease);
        long highest = single(Long.class, "select seq from key_invalidation_sequence");

        Api.Response refused = backend().post(lease.path() + "/ack", Map.of("seq", highest + 1_000_000));

        JsonNode problem = assertProblem(refused, 400, "validation_failed");
        assertThat(problem.get("errors").get(0).get("field").asString()).isEqualTo("seq");
        assertProblem(backend().post(lease.path() + "/ack", Map.of("seq", -1)), 400, "validation_failed");
        assertProblem(backend().post(lease.path() + "/ack", Map.of()), 400, "validation_failed");
        assertThat(appliedSeq(lease)).isEqualTo(before);
    }

    @Test
    void shouldStreamKeyChangedAfterARevokeAndLetTheRevokeAnswerSoonAfterTheAcknowledgement() throws Exception {
        Api customer = signedUp();
        String keyId = customer.newKeyId("cached");
        UUID organizationId = organizationOf(keyId);
        Lease lease = take();
        try (EventStream stream = follow(lease)) {
            assertThat(stream.header("Content-Type")).startsWith("text/event-stream");
            assertThat(stream.nextComment(SOON))
                    .as("a keepalive within a second")
                    .isEqualTo(": keepalive");

            CompletableFuture<Api.Response> revoke =
                    CompletableFuture.supplyAsync(() -> customer.delete("/api/v1/api-keys/" + keyId));
            EventStream.Event event = aboutKey(stream, keyId);

            long seq = Long.parseLong(event.id());
            assertThat(event.lines())
                    .containsExactly(
                            "id: " + seq,
                            "event: key.changed",
                            "data: {\"seq\":" + seq + ",\"type\":\"key.changed\",\"key_id\":\"" + keyId
                                    + "\",\"organization_id\":\"" + organizationId + "\"}");
            Thread.sleep(300);
            assertThat(revoke)
                    .as("the revoke waits for this holder's acknowledgement")
                    .isNotDone();

            long acked = System.nanoTime();
            assertThat(backend().post(lease.path() + "/ack", Map.of("seq", seq)).status())
                    .isEqualTo(204);

            assertThat(revoke.get(5, TimeUnit.SECONDS).status()).isEqualTo(204);
            assertThat(Duration.ofNanos(System.nanoTime() - acked))
                    .as("answered soon after the acknowledgement, not at the lease's end")
                    .isLessThan(Duration.ofMillis(1500));
            assertThat(appliedSeq(lease)).isEqualTo(seq);
        }
    }

    @Test
    void shouldAnswerARevokeWithinTheLeasePlusOneSecondWhenAHolderStaysSilentAndStopItsLease() throws Exception {
        Api customer = signedUp();
        String keyId = customer.newKeyId("silent");
        Lease lease = take();
        try (EventStream stream = follow(lease)) {
            // the holder renews every T/3, hears the event, and never acknowledges it
            CompletableFuture<Api.Response> revoke =
                    CompletableFuture.supplyAsync(() -> customer.delete("/api/v1/api-keys/" + keyId));
            long started = System.nanoTime();
            aboutKey(stream, keyId);
            Api.Response renewal = null;
            while (System.nanoTime() - started < TimeUnit.SECONDS.toNanos(3)) {
                renewal = backend().post(lease.path() + "/renew");
                if (renewal.status() != 200) {
                    break;
                }
                Thread.sleep(1_000);
            }

            assertProblem(renewal, 404, "lease_expired");
            Api.Response revoked = revoke.get(6, TimeUnit.SECONDS);
            assertThat(revoked.status()).isEqualTo(204);
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .as("a silent holder delays the change by the lease plus a third of it at most")
                    .isLessThan(Duration.ofMillis(4_000 + 500));
            assertProblem(backend().post(lease.path() + "/renew"), 404, "lease_expired");
            assertProblem(backend().post(lease.path() + "/ack", Map.of("seq", 0)), 404, "lease_expired");
            assertThat(count(
                            "select count(*) from key_cache_leases where instance_id = ? and stopped_at is not null",
                            lease.id()))
                    .isEqualTo(1);
        }
    }

    @Test
    void shouldStreamKeyChangedWhenAKeyIsDisabledNarrowedEnabledOrWidened() throws Exception {
        Api customer = signedUp();
        String keyId = customer.newKeyId("shaped", "read", "write");
        String path = "/api/v1/api-keys/" + keyId;
        Lease lease = take();
        try (EventStream stream = follow(lease)) {
            Holder holder = new Holder(lease, stream);
            for (Map<String, Object> change : List.<Map<String, Object>>of(
                    Map.of("enabled", false),
                    Map.of("enabled", true),
                    Map.of("permissions", List.of("read")),
                    Map.of("permissions", List.of("read", "write")),
                    Map.of("allowed_ips", List.of("203.0.113.0/24")))) {
                // the holder acknowledges as it goes, so narrowing changes answer at once
                CompletableFuture<Api.Response> update =
                        CompletableFuture.supplyAsync(() -> customer.patch(path, change));
                holder.acknowledge(aboutKey(stream, keyId));

                assertThat(update.get(5, TimeUnit.SECONDS).status())
                        .as(change.toString())
                        .isEqualTo(200);
            }
        }
    }

    @Test
    void shouldStreamOrganizationChangedWhenTheStorageStandingChanges() throws Exception {
        Api customer = api();
        Api.Account account = customer.signup();
        Lease lease = take();
        try (EventStream stream = follow(lease)) {
            StorageSamples.report(baseUrl(), account.projectId(), 12_345, java.time.Instant.now());

            EventStream.Event event = about(
                    stream, "organization.changed", account.organizationId().toString());

            assertThat(event.lines())
                    .containsExactly(
                            "id: " + event.id(),
                            "event: organization.changed",
                            "data: {\"seq\":" + event.id() + ",\"type\":\"organization.changed\","
                                    + "\"organization_id\":\"" + account.organizationId() + "\"}");
        }
    }

    @Test
    void shouldSendTheEventsNotYetAcknowledgedAgainOnReconnecting() throws Exception {
        Api customer = signedUp();
        String first = customer.newKeyId("first");
        String second = customer.newKeyId("second");
        Lease lease = take();
        long seq;
        try (EventStream stream = follow(lease)) {
            CompletableFuture<Api.Response> revoke =
                    CompletableFuture.supplyAsync(() -> customer.delete("/api/v1/api-keys/" + first));
            seq = Long.parseLong(aboutKey(stream, first).id());
            new Holder(lease, stream).acknowledge(seq);
            assertThat(revoke.get(5, TimeUnit.SECONDS).status()).isEqualTo(204);
        }
        // while the holder is away, another key is disabled: it waits for this lease, which is renewed
        CompletableFuture<Api.Response> disable = CompletableFuture.supplyAsync(
                () -> customer.patch("/api/v1/api-keys/" + second, Map.of("enabled", false)));
        Thread.sleep(200);
        assertThat(backend().post(lease.path() + "/renew").status()).isEqualTo(200);
        try (EventStream again = follow(lease)) {
            EventStream.Event event = aboutKey(again, second);

            assertThat(Long.parseLong(event.id())).isGreaterThan(seq);
            new Holder(lease, again).acknowledge(event);
            assertThat(disable.get(5, TimeUnit.SECONDS).status()).isEqualTo(200);
        }
    }

    @Test
    void shouldEndTheStreamWhenTheLeaseRunsOut() throws Exception {
        Lease lease = take();
        try (EventStream stream = follow(lease)) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(6);
            while (!stream.ended() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }

            assertThat(stream.ended())
                    .as("the stream of a lease that ran out ends")
                    .isTrue();
            assertProblem(backend().get(lease.eventsUrl()), 404, "lease_expired");
        }
    }

    @Test
    void shouldTellInVerifysAnswerTheKeysIdAndWhetherItMayBeCached() {
        Api customer = signedUp();
        String plain = rawKeyOf(customer, "plain-raw", Map.of());
        String limited = rawKeyOf(
                customer,
                "limited",
                Map.of("ratelimits", List.of(Map.of("name", "per-second", "limit", 100, "duration_ms", 1000))));
        String credited = rawKeyOf(customer, "credited", Map.of("credits", Map.of("remaining", 100)));
        String expiring = rawKeyOf(
                customer,
                "expiring",
                Map.of("expires_at", java.time.Instant.now().plusSeconds(30).toString()));

        JsonNode answer =
                Api.withKey(baseUrl(), plain).post("/api/v1/api-keys/verify").json();
        assertThat(answer.get("key_id").asString()).isEqualTo(customer.keyId("plain-raw"));
        assertThat(answer.get("cacheable").asBoolean()).isTrue();
        assertThat(Api.withKey(baseUrl(), limited)
                        .post("/api/v1/api-keys/verify")
                        .json()
                        .get("cacheable")
                        .asBoolean())
                .isFalse();
        assertThat(Api.withKey(baseUrl(), credited)
                        .post("/api/v1/api-keys/verify")
                        .json()
                        .get("cacheable")
                        .asBoolean())
                .isFalse();
        assertThat(Api.withKey(baseUrl(), expiring)
                        .post("/api/v1/api-keys/verify")
                        .json()
                        .get("cacheable")
                        .asBoolean())
                .as("a key within a minute of its expiry is asked every time")
                .isFalse();
    }

    private String rawKeyOf(Api customer, String name, Map<String, Object> fields) {
        Map<String, Object> body = new java.util.HashMap<>(fields);
        body.put("name", name);
        Api.Response created = customer.post("/api/v1/api-keys", body);
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return created.json().get("api_key").asString();
    }

    /** A holder that acknowledges what it dropped. */
    private record Holder(Lease lease, EventStream stream) {
        void acknowledge(EventStream.Event event) {
            acknowledge(Long.parseLong(event.id()));
        }

        void acknowledge(long seq) {
            Api.Response acked =
                    Api.withKey(stream.base(), USAGE_TOKEN).post(lease.path() + "/ack", Map.of("seq", seq));
            assertThat(acked.status()).as(acked.toString()).isEqualTo(204);
        }
    }

    /** The next {@code key.changed} of this key (other tenants' events of the shared service are skipped). */
    private static EventStream.Event aboutKey(EventStream stream, String keyId) throws InterruptedException {
        return about(stream, "key.changed", keyId);
    }

    private static EventStream.Event about(EventStream stream, String type, String id) throws InterruptedException {
        long deadline = System.nanoTime() + SOON.toNanos();
        while (System.nanoTime() < deadline) {
            EventStream.Event event = stream.next(Duration.ofMillis(200));
            if (event != null && type.equals(event.event()) && event.data().contains("\"" + id + "\"")) {
                return event;
            }
        }
        throw new AssertionError("no " + type + " about " + id + " within " + SOON);
    }

    private UUID organizationOf(String keyId) {
        return single(UUID.class, "select organization_id from api_keys where id = ?::uuid", keyId);
    }
}
