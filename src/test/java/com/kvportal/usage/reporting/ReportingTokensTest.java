package com.kvportal.usage.reporting;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.common.LocalTokens;
import com.kvportal.usage.UsageProperties;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ReportingTokensTest {

    static ReportingTokens tokens(String configured) {
        return new ReportingTokens(
                new UsageProperties(configured, Duration.ofSeconds(1), Duration.ofMinutes(5), Duration.ofSeconds(1)),
                LocalTokens.none());
    }

    @Test
    void withoutATokenReportingIsOffAndWithOneItIsOn() {
        assertThat(tokens("").enabled()).isFalse();
        assertThat(tokens(" , ").enabled()).isFalse();
        assertThat(tokens("old-token, new-token").enabled()).isTrue();
    }

    @ParameterizedTest(name = "with \"{0}\" configured, \"{1}\" is accepted: {2}")
    @CsvSource(
            nullValues = "null",
            value = {
                // without a token, nothing is accepted
                "'', 'Bearer ', false",
                "'', Bearer anything, false",
                "'', null, false",
                // every token of a rotation is accepted, as a bearer token only
                "'old-token, new-token', Bearer old-token, true",
                "'old-token, new-token', bearer new-token, true",
                "'old-token, new-token', Bearer other, false",
                "'old-token, new-token', 'Bearer old-token, new-token', false",
                "'old-token, new-token', Basic old-token, false",
                "'old-token, new-token', old-token, false"
            })
    void anAuthorizationIsAcceptedOnlyWhenItIsABearerOfAConfiguredToken(
            String configured, @Nullable String authorization, boolean accepted) {
        assertThat(tokens(configured).accepts(authorization)).isEqualTo(accepted);
    }
}
