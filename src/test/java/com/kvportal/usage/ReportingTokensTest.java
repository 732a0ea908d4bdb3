package com.kvportal.usage;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ReportingTokensTest {

    static ReportingTokens tokens(String configured) {
        return new ReportingTokens(new UsageProperties(configured, Duration.ofSeconds(1), Duration.ofMinutes(5)));
    }

    @Test
    void withoutATokenReportingIsOffAndNothingIsAccepted() {
        ReportingTokens off = tokens("");

        assertThat(off.enabled()).isFalse();
        assertThat(off.accepts("Bearer ")).isFalse();
        assertThat(off.accepts("Bearer anything")).isFalse();
        assertThat(off.accepts(null)).isFalse();
        assertThat(tokens(" , ").enabled()).isFalse();
    }

    @Test
    void everyTokenOfARotationIsAccepted() {
        ReportingTokens tokens = tokens("old-token, new-token");

        assertThat(tokens.enabled()).isTrue();
        assertThat(tokens.accepts("Bearer old-token")).isTrue();
        assertThat(tokens.accepts("bearer new-token")).isTrue();
        assertThat(tokens.accepts("Bearer other")).isFalse();
        assertThat(tokens.accepts("Bearer old-token, new-token")).isFalse();
        assertThat(tokens.accepts("Basic old-token")).isFalse();
        assertThat(tokens.accepts("old-token")).isFalse();
    }
}
