package com.kvportal.apikey.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class KeyCachePropertiesTest {

    private static KeyCacheProperties with(Duration lease, Duration margin, long size) {
        return new KeyCacheProperties(
                lease,
                margin,
                size,
                Duration.ofSeconds(2),
                10_000,
                Duration.ofMinutes(1),
                Duration.ofMinutes(10),
                false);
    }

    @Test
    void shouldRenewEveryThirdOfTheLeaseAndTrustItForTheLeaseLessTheMargin() {
        KeyCacheProperties defaults = with(Duration.ofSeconds(3), Duration.ofMillis(500), 200_000);
        assertThat(defaults.renewEvery()).isEqualTo(Duration.ofSeconds(1));
        assertThat(defaults.trusted()).isEqualTo(Duration.ofMillis(2500));
    }

    @Test
    void shouldRefuseAMarginThatLeavesNoTrustedTimeBetweenRenewals() {
        assertThatThrownBy(() -> with(Duration.ofSeconds(3), Duration.ofMillis(1500), 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("safety-margin");
        assertThatThrownBy(() -> with(Duration.ofSeconds(3), Duration.ofMillis(-1), 10))
                .hasMessageContaining("safety-margin");
    }

    @Test
    void shouldRefuseATinyLeaseAndANegativeSize() {
        assertThatThrownBy(() -> with(Duration.ofMillis(100), Duration.ZERO, 10))
                .hasMessageContaining("lease");
        assertThatThrownBy(() -> with(Duration.ofSeconds(3), Duration.ZERO, -1)).hasMessageContaining("maximum-size");
    }
}
