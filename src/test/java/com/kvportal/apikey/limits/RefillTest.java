package com.kvportal.apikey.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class RefillTest {

    @Test
    void shouldRefillDailyAtTheNextMidnightUtc() {
        Credits.Refill daily = new Credits.Refill(10L, Credits.Interval.DAY, null);
        assertThat(daily.nextAfter(Instant.parse("2026-03-05T13:00:00Z"))).isEqualTo("2026-03-06T00:00:00Z");
        assertThat(daily.nextAfter(Instant.parse("2026-03-05T00:00:00Z"))).isEqualTo("2026-03-06T00:00:00Z");
    }

    @Test
    void shouldClampTheDayOfMonthToTheMonthsLastDay() {
        Credits.Refill on31 = new Credits.Refill(10L, Credits.Interval.MONTH, 31);
        assertThat(on31.nextAfter(Instant.parse("2026-02-01T00:00:00Z"))).isEqualTo("2026-02-28T00:00:00Z");
        assertThat(on31.nextAfter(Instant.parse("2028-02-01T00:00:00Z"))).isEqualTo("2028-02-29T00:00:00Z");
        assertThat(on31.nextAfter(Instant.parse("2026-02-28T00:00:00Z"))).isEqualTo("2026-03-31T00:00:00Z");
    }

    @Test
    void shouldRefillMonthlyOnTheFirstByDefault() {
        Credits.Refill monthly = new Credits.Refill(10L, Credits.Interval.MONTH, null);
        assertThat(monthly.nextAfter(Instant.parse("2026-12-15T08:00:00Z"))).isEqualTo("2027-01-01T00:00:00Z");
    }

    @Test
    void shouldSayTheWindowInWords() {
        assertThat(new RateLimit("m", 100L, 60_000L).inWords()).isEqualTo("100 per minute");
        assertThat(new RateLimit("m", 5L, 90_000L).inWords()).isEqualTo("5 per 90 seconds");
        assertThat(new RateLimit("m", 7L, 86_400_000L).inWords()).isEqualTo("7 per day");
    }
}
