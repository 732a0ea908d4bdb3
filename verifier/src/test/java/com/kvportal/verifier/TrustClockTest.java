package com.kvportal.verifier;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TrustClockTest {

    private final AtomicLong nanos = new AtomicLong(123_456_789L);
    private final TrustClock trust = new TrustClock(nanos::get);

    private void advanceMillis(long millis) {
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    @Test
    void nothingIsTrustedBeforeTheFirstLease() {
        assertThat(trust.trusted()).isFalse();
    }

    @Test
    void trustsUntilTheRenewalsStartPlusTtlLessATenth() {
        long start = trust.now();
        advanceMillis(40); // the call took 40 ms: the trust still counts from its start
        trust.renewed(start, 3_000);
        advanceMillis(2_700 - 40 - 1);
        assertThat(trust.trusted()).isTrue();
        advanceMillis(1);
        assertThat(trust.trusted()).isFalse();
    }

    @Test
    void theMarginIsAtLeast100Milliseconds() {
        assertThat(TrustClock.marginMillis(3_000)).isEqualTo(300);
        assertThat(TrustClock.marginMillis(500)).isEqualTo(100);
        long start = trust.now();
        trust.renewed(start, 500);
        advanceMillis(399);
        assertThat(trust.trusted()).isTrue();
        advanceMillis(1);
        assertThat(trust.trusted()).isFalse();
    }

    @Test
    void aLapseEndsTrustAtOnceAndARenewalRestoresIt() {
        trust.renewed(trust.now(), 3_000);
        trust.lapse();
        assertThat(trust.trusted()).isFalse();
        trust.renewed(trust.now(), 3_000);
        assertThat(trust.trusted()).isTrue();
    }

    @Test
    void worksAcrossTheNanoClocksOverflow() {
        nanos.set(Long.MAX_VALUE - TimeUnit.MILLISECONDS.toNanos(1_000));
        trust.renewed(trust.now(), 3_000);
        advanceMillis(2_000); // past Long.MAX_VALUE
        assertThat(trust.trusted()).isTrue();
        advanceMillis(1_000);
        assertThat(trust.trusted()).isFalse();
    }
}
