package com.kvportal.verifier;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class AnswerCacheTest {

    private static final UUID ORGANIZATION = UUID.randomUUID();
    private static final UUID OTHER_ORGANIZATION = UUID.randomUUID();

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final AnswerCache cache = new AnswerCache(3, nanos::get);
    private static final long QUARANTINE = 6_000_000_000L;

    private static AnswerCache.Entry entry(UUID keyId, UUID organizationId) {
        Verification answer = Verification.valid(
                keyId, UUID.randomUUID(), UUID.randomUUID(), organizationId, List.of("read"), "free", true);
        return new AnswerCache.Entry(answer, keyId, organizationId, null, AnswerCache.NEVER);
    }

    @Test
    void keepsAnAnswerAskedWhileNothingWasDropped() {
        Digest digest = Digest.of("kv_a");
        AnswerCache.Entry entry = entry(UUID.randomUUID(), ORGANIZATION);
        assertThat(cache.put(digest, entry, cache.generation(), nanos.get())).isTrue();
        assertThat(cache.get(digest)).isSameAs(entry);
    }

    @Test
    void anAnswerAskedBeforeADropIsNotKept() {
        // the answer left the service before a change; the change's event was handled while it travelled
        long asked = cache.generation();
        cache.dropKey(UUID.randomUUID(), QUARANTINE);
        assertThat(cache.put(Digest.of("kv_a"), entry(UUID.randomUUID(), ORGANIZATION), asked, nanos.get()))
                .isFalse();
        assertThat(cache.get(Digest.of("kv_a"))).isNull();
        assertThat(cache.size()).isZero();
    }

    @Test
    void dropsOneKeyOrOneOrganizationsKeysOrEverything() {
        UUID key = UUID.randomUUID();
        cache.put(Digest.of("kv_a"), entry(key, ORGANIZATION), cache.generation(), nanos.get());
        cache.put(Digest.of("kv_b"), entry(UUID.randomUUID(), ORGANIZATION), cache.generation(), nanos.get());
        cache.put(Digest.of("kv_c"), entry(UUID.randomUUID(), OTHER_ORGANIZATION), cache.generation(), nanos.get());

        cache.dropKey(key, QUARANTINE);
        assertThat(cache.get(Digest.of("kv_a"))).isNull();
        assertThat(cache.size()).isEqualTo(2);

        cache.dropOrganization(ORGANIZATION, QUARANTINE);
        assertThat(cache.get(Digest.of("kv_b"))).isNull();
        assertThat(cache.get(Digest.of("kv_c"))).isNotNull();

        cache.clear();
        assertThat(cache.size()).isZero();
    }

    @Test
    void keepsNothingBeyondItsCapacity() {
        for (String key : new String[] {"kv_a", "kv_b", "kv_c"}) {
            assertThat(cache.put(
                            Digest.of(key), entry(UUID.randomUUID(), ORGANIZATION), cache.generation(), nanos.get()))
                    .isTrue();
        }
        assertThat(cache.put(
                        Digest.of("kv_d"), entry(UUID.randomUUID(), ORGANIZATION), cache.generation(), nanos.get()))
                .isFalse();
        assertThat(cache.get(Digest.of("kv_d"))).isNull();
    }

    @Test
    void aKeyWithAllowedAddressesIsRefusedOutsideThemAndAnExpiringKeyIsAskedAgain() {
        Verification valid = entry(UUID.randomUUID(), ORGANIZATION).answer();
        AnswerCache.Entry withAddresses = new AnswerCache.Entry(
                valid, valid.keyId(), ORGANIZATION, AllowedAddresses.of(List.of("203.0.113.0/24")), AnswerCache.NEVER);
        assertThat(withAddresses.answer("203.0.113.9")).isSameAs(valid);
        assertThat(withAddresses.answer("198.51.100.1").code()).isEqualTo("ip_not_allowed");
        assertThat(withAddresses.answer(null).code()).isEqualTo("ip_not_allowed");

        AnswerCache.Entry expired =
                new AnswerCache.Entry(valid, valid.keyId(), ORGANIZATION, null, System.currentTimeMillis() - 1);
        assertThat(expired.answer(null)).isNull();
        AnswerCache.Entry fresh =
                new AnswerCache.Entry(valid, valid.keyId(), ORGANIZATION, null, System.currentTimeMillis() + 60_000);
        assertThat(fresh.answer(null)).isSameAs(valid);
    }

    @Test
    void aDropRacingAPutNeverLeavesTheDroppedAnswer() throws Exception {
        // many rounds of: a put of key K asked at generation g, racing a drop of K; the drop must win every time
        UUID key = UUID.randomUUID();
        Digest digest = Digest.of("kv_race");
        for (int round = 0; round < 2_000; round++) {
            long asked = cache.generation();
            Thread dropper = new Thread(() -> cache.dropKey(key, QUARANTINE));
            dropper.start();
            cache.put(digest, entry(key, ORGANIZATION), asked, nanos.get());
            dropper.join();
            assertThat(cache.get(digest)).as("round %d", round).isNull();
        }
    }

    @Test
    void afterAnEventWhatItNamesIsNotKeptFromCallsStartedInTheQuarantine() {
        UUID key = UUID.randomUUID();
        cache.dropKey(key, QUARANTINE);
        // an instance that has not applied the change yet may answer the old state to a call made after the drop
        nanos.addAndGet(QUARANTINE - 1);
        assertThat(cache.put(Digest.of("kv_a"), entry(key, ORGANIZATION), cache.generation(), nanos.get()))
                .isFalse();
        assertThat(cache.put(
                        Digest.of("kv_b"), entry(UUID.randomUUID(), ORGANIZATION), cache.generation(), nanos.get()))
                .as("other keys are kept")
                .isTrue();
        long startedInTheQuarantine = nanos.get();
        nanos.addAndGet(1);
        assertThat(cache.put(Digest.of("kv_a"), entry(key, ORGANIZATION), cache.generation(), startedInTheQuarantine))
                .as("the call's start counts, not the answer's arrival")
                .isFalse();
        assertThat(cache.put(Digest.of("kv_a"), entry(key, ORGANIZATION), cache.generation(), nanos.get()))
                .isTrue();
    }

    @Test
    void anOrganizationsEventQuarantinesEveryKeyOfItAndAResetEverything() {
        cache.dropOrganization(ORGANIZATION, QUARANTINE);
        assertThat(cache.put(
                        Digest.of("kv_a"), entry(UUID.randomUUID(), ORGANIZATION), cache.generation(), nanos.get()))
                .isFalse();
        assertThat(cache.put(
                        Digest.of("kv_b"),
                        entry(UUID.randomUUID(), OTHER_ORGANIZATION),
                        cache.generation(),
                        nanos.get()))
                .isTrue();
        cache.reset(QUARANTINE);
        assertThat(cache.size()).isZero();
        assertThat(cache.put(
                        Digest.of("kv_b"),
                        entry(UUID.randomUUID(), OTHER_ORGANIZATION),
                        cache.generation(),
                        nanos.get()))
                .isFalse();
        nanos.addAndGet(QUARANTINE);
        assertThat(cache.put(
                        Digest.of("kv_b"),
                        entry(UUID.randomUUID(), OTHER_ORGANIZATION),
                        cache.generation(),
                        nanos.get()))
                .isTrue();
    }
}
