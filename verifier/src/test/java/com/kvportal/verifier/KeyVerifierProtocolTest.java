package com.kvportal.verifier;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The library's side of the lease protocol, against {@link ProtocolStub} with a short ttl (600 ms). */
class KeyVerifierProtocolTest {

    private static final long TTL = 600;

    private ProtocolStub service;
    private KeyVerifier verifier;
    /** When the first lease was asked for: the library counts its two ttls from there. */
    private long connecting;

    @BeforeEach
    void connect() throws Exception {
        service = new ProtocolStub(TTL);
        connecting = System.nanoTime();
        verifier = KeyVerifier.connect(service.base(), "usage-token");
    }

    @AfterEach
    void close() {
        verifier.close();
        service.close();
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() < deadline).as(what).isTrue();
            Thread.sleep(20);
        }
    }

    /** Verifies the good key until it is answered from memory (after the lease's first two ttls). */
    private void cached() throws InterruptedException {
        await("the key is kept", () -> {
            verifier.verify(ProtocolStub.GOOD_KEY);
            return verifier.cachedAnswers() == 1;
        });
        int asked = service.verifies.get();
        for (int i = 0; i < 100; i++) {
            assertThat(verifier.verify(ProtocolStub.GOOD_KEY).valid()).isTrue();
        }
        assertThat(service.verifies.get()).as("answered from memory").isEqualTo(asked);
    }

    @Test
    void answersFromMemoryOnlyAfterTheLeasesFirstTwoTtls() throws Exception {
        Verification first = verifier.verify(ProtocolStub.GOOD_KEY);
        assertThat(first.valid()).isTrue();
        assertThat(first.keyId()).isEqualTo(ProtocolStub.KEY_ID);
        assertThat(first.organizationId()).isEqualTo(ProtocolStub.ORGANIZATION_ID);
        assertThat(first.permissions()).containsExactly("write");
        assertThat(first.tier()).isEqualTo("free");
        assertThat(first.writeAllowed()).isTrue();
        verifier.verify(ProtocolStub.GOOD_KEY);
        if (System.nanoTime() - connecting < Duration.ofMillis(2 * TTL).toNanos()) {
            assertThat(service.verifies.get())
                    .as("nothing kept in the first two ttls")
                    .isEqualTo(2);
        }
        cached();
        assertThat(System.nanoTime() - connecting)
                .isGreaterThanOrEqualTo(Duration.ofMillis(2 * TTL).toNanos());
        assertThat(service.renewals.get()).as("renewed every ttl/3").isGreaterThanOrEqualTo(3);
    }

    @Test
    void aRefusalOfAnUnknownKeyIsKeptToo() throws Exception {
        cached();
        assertThat(verifier.verify("kv_unknown").code()).isEqualTo("invalid_api_key");
        int asked = service.verifies.get();
        assertThat(verifier.verify("kv_unknown").code()).isEqualTo("invalid_api_key");
        assertThat(service.verifies.get()).isEqualTo(asked);
    }

    @Test
    void anEventDropsWhatItNamesAndIsAcknowledged() throws Exception {
        cached();
        service.event(1, "key.changed", ProtocolStub.KEY_ID, ProtocolStub.ORGANIZATION_ID);
        await("event 1 acknowledged", () -> service.acks.contains(1L));
        assertThat(verifier.cachedAnswers()).isZero();
        int asked = service.verifies.get();
        verifier.verify(ProtocolStub.GOOD_KEY);
        verifier.verify(ProtocolStub.GOOD_KEY);
        assertThat(service.verifies.get())
                .as("asked again after the drop, and not kept for two ttls")
                .isEqualTo(asked + 2);

        cached();
        service.event(2, "organization.changed", null, ProtocolStub.ORGANIZATION_ID);
        await("event 2 acknowledged", () -> service.acks.contains(2L));
        assertThat(verifier.cachedAnswers()).isZero();

        cached();
        verifier.verify("kv_unknown");
        assertThat(verifier.cachedAnswers()).isEqualTo(2);
        service.event(3, "reset", null, null);
        await("event 3 acknowledged", () -> service.acks.contains(3L));
        assertThat(verifier.cachedAnswers()).isZero();
    }

    @Test
    void stopsTrustingItsCacheWhenRenewalsFailAndAsksTheServiceMeanwhile() throws Exception {
        cached();
        service.renewStatus = 503;
        await("the cache is no longer trusted", () -> !verifier.cacheTrusted());
        int asked = service.verifies.get();
        assertThat(verifier.verify(ProtocolStub.GOOD_KEY).valid()).isTrue();
        assertThat(service.verifies.get()).as("asked of the service").isEqualTo(asked + 1);

        service.renewStatus = 200;
        await("trusted again after a renewal", verifier::cacheTrusted);
        asked = service.verifies.get();
        verifier.verify(ProtocolStub.GOOD_KEY);
        assertThat(service.verifies.get())
                .as("the answer kept before is used again")
                .isEqualTo(asked);
    }

    @Test
    void aLeaseTheServiceLetExpireEmptiesTheCacheAndANewOneIsTaken() throws Exception {
        cached();
        service.leaseExpired = true;
        await("a new lease", () -> service.leases.get() == 2);
        assertThat(verifier.cachedAnswers()).isZero();
        cached();
    }

    @Test
    void aStreamThatFallsSilentIsReopened() throws Exception {
        await("the stream is open", () -> service.streams.get() == 1);
        service.silent = true;
        await("the stream is reopened", () -> service.streams.get() >= 2);
        service.silent = false;
        service.event(1, "reset", null, null);
        await("events flow on the new stream", () -> service.acks.contains(1L));
    }
}
